//! The `acyclic` and `chokepoints` families (issue 42) against brute-force definitions written
//! here from `FORMAT.md` (not the crate's referee, and by other methods: a union-find for
//! cycles, pieces on either side of a cell for articulation, a walk around each edge for
//! loops), by exhaustive enumeration on 3×3 and 4×3 grids:
//! - both ways per level, in the exported model (`GridModel::build`) and in the propagated
//!   model (`GridModel::build_for_propagator` with its propagator connected): a level is a
//!   model (its cell variables assumed) exactly when the brute force keeps the rule, and
//!   exactly when the referee accepts it;
//! - the number of levels each model admits, counted with blocking clauses (in the propagated
//!   model the propagator checks every model), equals the number the brute force keeps;
//! - on 5×5 grids with random pins, the same counts in both models, and the cut loop
//!   (`ConnectivityStrategy::Lazy`, whose clauses the clash diagnosis uses) finds a level
//!   exactly when one exists;
//! - a spec with no level names the rule in its clash (the clash diagnosis runs the cut loop's
//!   clauses), and the referee names the rule on a hand-made level that breaks it.

use grim_levels::{
    self as grid, FieldProblem, Finding, GridError, GridModel, GridOptions, GridOutcome, GridSpec,
    Level, check_level, level_cost,
};
use grim_solver::Budget;
use grim_testkit::grid::{all_levels, both_ways_in_both_models, checked_model_count, fitting};

fn spec(json: &str) -> GridSpec {
    GridSpec::from_json(json).unwrap_or_else(|e| panic!("{e}\n{json}"))
}

/// The brute force's verdict on a level.
type Rule = dyn Fn(&Level) -> bool;

/// Both ways, in both models, and the model counts of both; returns (kept, broken).
fn both_ways(json: &str, keeps: &Rule) -> (usize, usize) {
    let spec = spec(json);
    both_ways_in_both_models(&spec, &all_levels(&spec), keeps)
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

/// The cells of `l` holding tile `t` inside the rectangle `(x0, y0, w, h)`.
fn members(l: &Level, t: usize, (x0, y0, w, h): (usize, usize, usize, usize)) -> Vec<bool> {
    (0..l.width * l.height)
        .map(|c| {
            let (x, y) = (c % l.width, c / l.width);
            x >= x0 && x < x0 + w && y >= y0 && y < y0 + h && l.tiles[c] == t
        })
        .collect()
}

/// The 4-neighbours of `c` on a `w`-wide grid of `n` cells.
fn nbrs(c: usize, w: usize, n: usize) -> Vec<usize> {
    let mut out = Vec::new();
    if !c.is_multiple_of(w) {
        out.push(c - 1);
    }
    if c % w + 1 < w {
        out.push(c + 1);
    }
    if c >= w {
        out.push(c - w);
    }
    if c + w < n {
        out.push(c + w);
    }
    out
}

/// Whether the member cells' graph has a cycle: some edge joins two cells a union-find has
/// already joined.
fn has_cycle(m: &[bool], w: usize) -> bool {
    let n = m.len();
    let mut up: Vec<usize> = (0..n).collect();
    fn find(up: &mut [usize], mut c: usize) -> usize {
        while up[c] != c {
            c = up[c];
        }
        c
    }
    for c in (0..n).filter(|&c| m[c]) {
        for d in nbrs(c, w, n).into_iter().filter(|&d| d > c && m[d]) {
            let (a, b) = (find(&mut up, c), find(&mut up, d));
            if a == b {
                return true;
            }
            up[a] = b;
        }
    }
    false
}

/// The member cells reached from `from` without passing `avoid` (and without the edge
/// `skip`, both ways).
fn reach(
    m: &[bool],
    w: usize,
    from: usize,
    avoid: Option<usize>,
    skip: Option<(usize, usize)>,
) -> Vec<bool> {
    let n = m.len();
    let mut seen = vec![false; n];
    seen[from] = true;
    let mut todo = vec![from];
    while let Some(c) = todo.pop() {
        for d in nbrs(c, w, n) {
            let skipped = skip.is_some_and(|(a, b)| (a, b) == (c, d) || (b, a) == (c, d));
            if m[d] && !seen[d] && Some(d) != avoid && !skipped {
                seen[d] = true;
                todo.push(d);
            }
        }
    }
    seen
}

/// Articulation cells: members with two member neighbours that no walk of members avoiding
/// the cell joins.
fn articulation(m: &[bool], w: usize) -> usize {
    let n = m.len();
    (0..n)
        .filter(|&v| m[v])
        .filter(|&v| {
            let ns: Vec<usize> = nbrs(v, w, n).into_iter().filter(|&d| m[d]).collect();
            ns.iter().any(|&a| {
                let r = reach(m, w, a, Some(v), None);
                ns.iter().any(|&b| !r[b])
            })
        })
        .count()
}

/// Whether every member lies on a cycle: some edge of it has its ends joined without it.
fn all_on_loops(m: &[bool], w: usize) -> bool {
    let n = m.len();
    (0..n).filter(|&v| m[v]).all(|v| {
        nbrs(v, w, n)
            .into_iter()
            .filter(|&d| m[d])
            .any(|d| reach(m, w, v, None, Some((v, d)))[d])
    })
}

/// Whether the members are 4-connected (none is).
fn connected(m: &[bool], w: usize) -> bool {
    match (0..m.len()).find(|&c| m[c]) {
        None => true,
        Some(s) => {
            let r = reach(m, w, s, None, None);
            (0..m.len()).all(|c| !m[c] || r[c])
        }
    }
}

// ----- acyclic -----

#[test]
fn acyclic_matches_the_brute_force_in_both_models() {
    let json = format!(r#"{{"width": 4, "height": 3, {AB}, "acyclic": [{{"class": "b"}}]}}"#);
    let keeps = |l: &Level| !has_cycle(&members(l, 1, (0, 0, 4, 3)), 4);
    assert_mixed(both_ways(&json, &keeps));
    let json = format!(
        r#"{{"width": 3, "height": 3, {AB}, "acyclic": [{{"class": "k"}}, {{"class": "a"}}]}}"#
    );
    let keeps = |l: &Level| {
        !has_cycle(&members(l, 1, (0, 0, 3, 3)), 3) && !has_cycle(&members(l, 0, (0, 0, 3, 3)), 3)
    };
    assert_mixed(both_ways(&json, &keeps));
}

#[test]
fn acyclic_in_a_region_ignores_cycles_that_leave_it() {
    let json = format!(
        r#"{{"width": 4, "height": 3, {AB},
            "acyclic": [{{"class": "b", "region": {{"x": 1, "y": 0, "w": 3, "h": 3}}}}]}}"#
    );
    let keeps = |l: &Level| !has_cycle(&members(l, 1, (1, 0, 3, 3)), 4);
    assert_mixed(both_ways(&json, &keeps));
}

#[test]
fn acyclic_with_connectivity_admits_exactly_the_trees() {
    // A perfect maze: the b cells form one tree (the root pinned).
    let json = format!(
        r#"{{"width": 4, "height": 3, {AB}, "mask": ["b???", "????", "????"],
            "connectivity": [{{"class": "b", "root": {{"x": 0, "y": 0}}}}],
            "acyclic": [{{"class": "b"}}]}}"#
    );
    let keeps = |l: &Level| {
        let m = members(l, 1, (0, 0, 4, 3));
        !has_cycle(&m, 4) && connected(&m, 4)
    };
    assert_mixed(both_ways(&json, &keeps));
}

#[test]
fn a_soft_acyclic_rule_costs_its_weight_once() {
    // Two 2×2 blocks of b are forced; the rule costs 3 once, whatever the cycles.
    let json = format!(
        r#"{{"width": 4, "height": 3, {AB}, "mask": ["bb??", "bb??", "?bb?"],
            "acyclic": [{{"class": "b", "weight": 3}}], "counts": [{{"of": "b", "min": 9, "weight": 1}}]}}"#
    );
    let spec = spec(&json);
    let options = GridOptions::default();
    let best = all_levels(&spec)
        .iter()
        .filter(|l| check_level(&spec, l).is_ok())
        .map(|l| level_cost(&spec, &options, l))
        .min()
        .unwrap();
    assert_eq!(
        best, 3,
        "the forced block breaks the rule, nine b cells are free"
    );
    let level = grim_testkit::grid::solve_level(&spec, &options);
    assert_eq!(level_cost(&spec, &options, &level), best);
    let keeps = |_: &Level| true;
    both_ways(&json, &keeps);
}

#[test]
fn a_forced_cycle_is_named_in_the_clash() {
    let json = format!(
        r#"{{"width": 4, "height": 3, {AB}, "mask": ["?bb?", "?b??", "????"],
            "counts": [{{"of": "b", "min": 11}}], "acyclic": [{{"class": "b"}}]}}"#
    );
    let named = clash(&json);
    assert!(named.contains(&"acyclic[0]".to_string()), "{named:?}");
    assert!(
        named
            .iter()
            .all(|r| r == "acyclic[0]" || r == "counts[0]" || r.starts_with("mask[")),
        "{named:?}"
    );
}

#[test]
fn the_referee_counts_independent_cycles() {
    let json = format!(r#"{{"width": 4, "height": 3, {AB}, "acyclic": [{{"class": "b"}}]}}"#);
    let spec = spec(&json);
    let ok = Level::from_text(&spec, "bbbb\nabab\nbbab\n").unwrap();
    assert_eq!(check_level(&spec, &ok), Ok(()));
    // A ring of eight around a (x=1 y=1) and a 2×2 block sharing its east side: 2 cycles.
    let level = Level::from_text(&spec, "bbbb\nbabb\nbbba\n").unwrap();
    let v = check_level(&spec, &level).unwrap_err();
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].rule, "acyclic[0]");
    assert_eq!(v[0].found, Finding::Cycle { rank: 2 });
    assert_eq!(v[0].cell, Some((0, 0)));
}

// ----- chokepoints -----

#[test]
fn no_chokepoints_matches_the_brute_force_in_both_models() {
    let json = format!(
        r#"{{"width": 4, "height": 3, {AB}, "chokepoints": [{{"class": "b", "max": 0}}]}}"#
    );
    let keeps = |l: &Level| articulation(&members(l, 1, (0, 0, 4, 3)), 4) == 0;
    assert_mixed(both_ways(&json, &keeps));
}

#[test]
fn chokepoints_between_bounds_and_in_a_region_match_the_brute_force() {
    let json = format!(
        r#"{{"width": 4, "height": 3, {AB}, "chokepoints": [{{"class": "b", "min": 2, "max": 3}}]}}"#
    );
    let keeps = |l: &Level| (2..=3).contains(&articulation(&members(l, 1, (0, 0, 4, 3)), 4));
    assert_mixed(both_ways(&json, &keeps));
    let json = format!(
        r#"{{"width": 4, "height": 3, {AB}, "chokepoints": [
            {{"class": "a", "min": 1, "region": {{"x": 0, "y": 0, "w": 3, "h": 3}}}}]}}"#
    );
    let keeps = |l: &Level| articulation(&members(l, 0, (0, 0, 3, 3)), 4) >= 1;
    assert_mixed(both_ways(&json, &keeps));
}

#[test]
fn loop_means_no_chokepoint_and_every_cell_on_a_cycle() {
    let json = format!(
        r#"{{"width": 4, "height": 3, {AB}, "chokepoints": [{{"class": "b", "loop": true}}]}}"#
    );
    let keeps = |l: &Level| {
        let m = members(l, 1, (0, 0, 4, 3));
        articulation(&m, 4) == 0 && all_on_loops(&m, 4)
    };
    assert_mixed(both_ways(&json, &keeps));
    // With connectivity: one loop-rich cave.
    let json = format!(
        r#"{{"width": 4, "height": 3, {AB}, "connectivity": [{{"class": "b"}}],
            "chokepoints": [{{"class": "b", "loop": true}}]}}"#
    );
    let keeps = |l: &Level| {
        let m = members(l, 1, (0, 0, 4, 3));
        articulation(&m, 4) == 0 && all_on_loops(&m, 4) && connected(&m, 4)
    };
    assert_mixed(both_ways(&json, &keeps));
}

#[test]
fn a_forced_corridor_is_named_in_the_clash() {
    let json = format!(
        r#"{{"width": 4, "height": 3, {AB}, "mask": ["aaaa", "bbbb", "????"],
            "counts": [{{"of": "b", "max": 5}}], "chokepoints": [{{"class": "b", "max": 1}}]}}"#
    );
    let named = clash(&json);
    assert!(named.contains(&"chokepoints[0]".to_string()), "{named:?}");
    assert!(
        named
            .iter()
            .all(|r| r == "chokepoints[0]" || r == "counts[0]" || r.starts_with("mask[")),
        "{named:?}"
    );
    // Too few chokepoints: an all-b 4×3 level has none, and the mask allows nothing else.
    let json = format!(
        r#"{{"width": 3, "height": 2, {AB}, "mask": ["bbb", "bbb"],
            "chokepoints": [{{"class": "b", "min": 1}}]}}"#
    );
    let named = clash(&json);
    assert!(named.contains(&"chokepoints[0]".to_string()), "{named:?}");
}

#[test]
fn the_referee_counts_articulation_cells_and_loops() {
    let json = format!(
        r#"{{"width": 4, "height": 3, {AB}, "chokepoints": [{{"class": "b", "max": 0}}]}}"#
    );
    let spec = spec(&json);
    let ok = Level::from_text(&spec, "bbba\nbaba\nbbba\n").unwrap();
    assert_eq!(check_level(&spec, &ok), Ok(()));
    let level = Level::from_text(&spec, "bbbb\nbaba\nbbba\n").unwrap();
    let v = check_level(&spec, &level).unwrap_err();
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].rule, "chokepoints[0]");
    assert_eq!(v[0].cell, Some((2, 0)));
    assert_eq!(
        v[0].found,
        Finding::Chokepoints {
            found: 1,
            min: 0,
            max: Some(0)
        }
    );
    // Two cells side by side: no articulation cell, but not on a loop.
    let json = format!(
        r#"{{"width": 4, "height": 3, {AB}, "chokepoints": [{{"class": "b", "loop": true}}]}}"#
    );
    let spec = self::spec(&json);
    let level = Level::from_text(&spec, "bbba\nbaba\nbbba\n").unwrap();
    assert_eq!(check_level(&spec, &level), Ok(()));
    let level = Level::from_text(&spec, "aaaa\naaaa\nabba\n").unwrap();
    let v = check_level(&spec, &level).unwrap_err();
    assert_eq!((v[0].cell, &v[0].found), (Some((1, 2)), &Finding::OffLoop));
}

#[test]
fn the_export_refuses_a_chokepoint_rule_too_large_and_the_solve_does_not() {
    let json = format!(
        r#"{{"width": 24, "height": 24, {AB}, "chokepoints": [{{"class": "b", "max": 0}}],
            "counts": [{{"of": "b", "min": 0.5}}]}}"#
    );
    let spec = spec(&json);
    let options = GridOptions::default();
    match GridModel::build(&spec, &options) {
        Err(GridError::Invalid { field, problem }) => {
            assert_eq!(field, "chokepoints[0]");
            assert!(
                matches!(problem, FieldProblem::ChokepointsExportTooLarge { .. }),
                "{problem:?}"
            );
        }
        other => panic!("expected a refusal, got {:?}", other.map(|_| ())),
    }
    match grid::solve(&spec, &options, Budget::UNLIMITED) {
        Ok(GridOutcome::Level(level)) => assert_eq!(check_level(&spec, &level), Ok(())),
        other => panic!("expected a level, got {other:?}"),
    }
}

#[test]
fn the_reader_rejects_loop_with_a_ceiling_a_loop_not_boolean_and_no_bound() {
    let json = format!(
        r#"{{"width": 4, "height": 3, {AB}, "chokepoints": [{{"class": "b", "loop": true, "max": 2}}]}}"#
    );
    match GridSpec::from_json(&json) {
        Err(GridError::Invalid { field, problem }) => {
            assert_eq!(field, "chokepoints[0]");
            assert_eq!(problem, FieldProblem::LoopWithBounds);
        }
        other => panic!("expected an error, got {other:?}"),
    }
    let json = format!(
        r#"{{"width": 4, "height": 3, {AB}, "chokepoints": [{{"class": "b", "loop": "yes"}}]}}"#
    );
    let e = GridSpec::from_json(&json).unwrap_err().to_string();
    assert_eq!(e, "chokepoints[0].loop: \"yes\" must be true or false");
    let json = format!(r#"{{"width": 4, "height": 3, {AB}, "chokepoints": [{{"class": "b"}}]}}"#);
    let e = GridSpec::from_json(&json).unwrap_err().to_string();
    assert!(e.starts_with("chokepoints[0]: "), "{e}");
}

// ----- 5×5, pinned at random -----

/// A 5×5 mask with about 15 cells pinned to `a` or `b` at random (seeded) and the rest free.
fn pinned_mask(seed: u64) -> Vec<String> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    (0..5)
        .map(|_| {
            (0..5)
                .map(|_| match next() % 8 {
                    0..=2 => '?',
                    3..=5 => 'b',
                    _ => 'a',
                })
                .collect()
        })
        .collect()
}

#[test]
fn pinned_5x5_grids_admit_the_same_levels_in_both_models_as_the_brute_force() {
    let rules: [(&str, &Rule); 5] = [
        (r#""acyclic": [{"class": "b"}]"#, &|l| {
            !has_cycle(&members(l, 1, (0, 0, 5, 5)), 5)
        }),
        (
            r#""acyclic": [{"class": "b"}], "connectivity": [{"class": "b"}]"#,
            &|l| {
                let m = members(l, 1, (0, 0, 5, 5));
                !has_cycle(&m, 5) && connected(&m, 5)
            },
        ),
        (r#""chokepoints": [{"class": "b", "max": 0}]"#, &|l| {
            articulation(&members(l, 1, (0, 0, 5, 5)), 5) == 0
        }),
        (r#""chokepoints": [{"class": "b", "loop": true}]"#, &|l| {
            let m = members(l, 1, (0, 0, 5, 5));
            articulation(&m, 5) == 0 && all_on_loops(&m, 5)
        }),
        (
            r#""chokepoints": [{"class": "b", "min": 2, "max": 4}]"#,
            &|l| (2..=4).contains(&articulation(&members(l, 1, (0, 0, 5, 5)), 5)),
        ),
    ];
    let (mut some, mut none) = (0, 0);
    for seed in 0..30u64 {
        let (json_rule, keeps) = rules[seed as usize % rules.len()];
        let mask = pinned_mask(seed)
            .iter()
            .map(|r| format!("\"{r}\""))
            .collect::<Vec<_>>()
            .join(", ");
        let json = format!(r#"{{"width": 5, "height": 5, {AB}, "mask": [{mask}], {json_rule}}}"#);
        let spec = spec(&json);
        let kept = fitting(&spec).iter().filter(|l| keeps(l)).count();
        let options = GridOptions::default();
        let export = GridModel::build(&spec, &options).unwrap();
        let propagated = GridModel::build_for_propagator(&spec, &options).unwrap();
        assert_eq!(checked_model_count(&export, &spec), kept, "export, {json}");
        assert_eq!(
            checked_model_count(&propagated, &spec),
            kept,
            "propagated, {json}"
        );
        // The cut loop (the clash diagnosis's model) agrees on whether a level exists.
        let lazy = grid::ConnectivityStrategy::Lazy;
        let (outcome, _) = grid::solve_with(&spec, &options, Budget::UNLIMITED, lazy).unwrap();
        match outcome {
            GridOutcome::Level(l) => assert!(kept > 0 && check_level(&spec, &l).is_ok()),
            GridOutcome::NoLevel { .. } => assert_eq!(kept, 0, "cut loop, {json}"),
            other => panic!("{other:?}"),
        }
        if kept > 0 {
            some += 1;
        } else {
            none += 1;
        }
    }
    assert!(
        some >= 10 && none >= 1,
        "{some} specs with levels, {none} without"
    );
}

// ----- describe -----

#[test]
fn describe_measures_what_the_rules_bound_on_the_levels_they_make() {
    // The shipped seeds of the fuzz corpus: a 6×6 tree maze and a 6×6 cave of loops.
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fuzz/seeds/grid_json_parse"
    );
    for (file, set, metric) in [
        ("maze-6.json", "floor", "cycle_rank"),
        ("loops-6.json", "open", "articulation_cells"),
    ] {
        let text = std::fs::read_to_string(format!("{dir}/{file}")).unwrap();
        let spec = spec(&text);
        for seed in 0..5 {
            let level = grim_testkit::grid::solve_level(&spec, &grim_testkit::grid::seeded(seed));
            let d = grid::describe(&spec, &level);
            let s = d.sets.iter().find(|s| s.name == set).expect("the set");
            let value = if metric == "cycle_rank" {
                s.cycle_rank
            } else {
                s.articulation_cells
            };
            assert_eq!(
                value,
                0,
                "{file} seed {seed}: {metric}\n{}",
                level.to_text(&spec)
            );
            assert!(s.cells > 0, "{file} seed {seed}: no {set} cells");
        }
    }
}

#[test]
fn on_4x4_both_rules_match_the_brute_force_in_both_models() {
    let json = format!(
        r#"{{"width": 4, "height": 4, {AB}, "acyclic": [{{"class": "b"}}],
            "chokepoints": [{{"class": "b", "max": 0}}]}}"#
    );
    let keeps = |l: &Level| {
        let m = members(l, 1, (0, 0, 4, 4));
        !has_cycle(&m, 4) && articulation(&m, 4) == 0
    };
    assert_mixed(both_ways(&json, &keeps));
}
