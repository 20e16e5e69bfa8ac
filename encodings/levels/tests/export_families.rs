//! The exported CNF as an outside solver meets it, one small spec per rule family that the
//! other export tests do not solve externally (layers with `requires`, runs, dead ends,
//! separation by both metrics, symmetry, acyclic, chokepoints, locks, `min_length`): the file
//! `write_encoding` writes is given to CaDiCaL, its model decoded and judged by the referee,
//! then the level is blocked (a clause over its cell and layer literals appended to the file)
//! and the next one asked for, a few times per spec — so a clause the export forgot shows as a
//! level the referee rejects, whichever of the levels CaDiCaL happens to find first. A variant
//! of each spec that no level keeps (checked by the in-process solve) is refuted by CaDiCaL.
//!
//! Run when CaDiCaL is installed; skipped with a note otherwise (`grim_testkit::reference`).

use grim_levels::decode::{Answer, read_answer};
use grim_levels::encode::write_encoding;
use grim_levels::{self as grid, GridModel, GridOptions, GridOutcome, GridSpec, check_level};
use grim_solver::{Budget, Lit};
use grim_testkit::grid::{assumptions, fitting};
use grim_testkit::reference;
use std::path::{Path, PathBuf};
use std::process::Command;

const TILES: &str = r#""tiles": [{"name": "wall", "glyph": "x", "weight": 2},
    {"name": "floor", "glyph": ".", "weight": 3, "classes": ["walk"]},
    {"name": "water", "glyph": "~", "classes": ["walk"]}]"#;

/// One spec per family, each with a level, and a variant of it without one.
fn cases() -> Vec<(&'static str, String, String)> {
    let spec = |rules: &str| format!(r#"{{"width": 6, "height": 6, {TILES}, {rules}}}"#);
    let items = r#""layers": [{"name": "items", "values": [{"name": "none", "glyph": " "},
        {"name": "spawn", "glyph": "s", "requires": "floor"}]}]"#;
    vec![
        (
            "layers with requires and a ratio",
            spec(&format!(
                r#"{items}, "counts": [{{"of": "items.spawn", "min": 3, "max": 4}},
                {{"of": "items.spawn", "per": "floor", "max": 0.25}}]"#
            )),
            spec(&format!(
                r#"{items}, "counts": [{{"of": "items.spawn", "min": 3}}, {{"of": "floor", "max": 2}}]"#
            )),
        ),
        (
            "runs",
            spec(
                r#""runs": [{"of": "wall", "max": 1, "axis": "both"}, {"of": "walk", "max": 2, "axis": "row"}]"#,
            ),
            // Rows alternate, so every row holds exactly three walls.
            spec(
                r#""runs": [{"of": "wall", "max": 1, "axis": "row"}, {"of": "walk", "max": 1, "axis": "row"}], "counts": [{"of": "wall", "max": 17}]"#,
            ),
        ),
        (
            "dead ends with connectivity",
            spec(
                r#""connectivity": [{"class": "walk"}], "counts": [{"of": "walk", "min": 12}],
                "dead_ends": [{"class": "walk", "min": 1, "max": 2}]"#,
            ),
            spec(
                r#""mask": ["??????", "??????", "??????", "??????", "??????", "xxxxxx"],
                "pins": [{"x": 0, "y": 0, "tile": "floor"}, {"x": 5, "y": 4, "tile": "floor"}],
                "counts": [{"of": "walk", "max": 10}],
                "connectivity": [{"class": "walk"}], "dead_ends": [{"class": "walk", "max": 0}]"#,
            ),
        ),
        (
            "separation, Manhattan and walking",
            spec(&format!(
                r#"{items}, "counts": [{{"of": "items.spawn", "min": 2}}, {{"of": "water", "min": 2}}],
                "connectivity": [{{"class": "walk"}}],
                "separation": [{{"of": "items.spawn", "min_distance": 6, "metric": "walk", "through": "walk"}},
                {{"of": "water", "min_distance": 3}}]"#
            )),
            spec(
                r#""counts": [{"of": "water", "min": 5}], "separation": [{"of": "water", "min_distance": 5}]"#,
            ),
        ),
        (
            "symmetry",
            spec(
                r#""symmetry": [{"kind": "vertical"}, {"kind": "rotate_90", "region": {"x": 1, "y": 1, "w": 4, "h": 4}}],
                "counts": [{"of": "water", "min": 3, "max": 8}]"#,
            ),
            spec(
                r#""symmetry": [{"kind": "vertical"}], "counts": [{"of": "water", "min": 3, "max": 3}],
                "pins": [{"x": 0, "y": 0, "tile": "wall"}, {"x": 5, "y": 0, "tile": "wall"}, {"x": 0, "y": 5, "tile": "wall"},
                {"x": 5, "y": 5, "tile": "wall"}], "mask": ["??????", "??????", "??????", "??????", "??????", "??????"]"#,
            ),
        ),
        (
            "a perfect maze",
            spec(
                r#""acyclic": [{"class": "walk"}], "connectivity": [{"class": "walk"}], "counts": [{"of": "walk", "min": 18}]"#,
            ),
            spec(
                r#""acyclic": [{"class": "walk"}], "counts": [{"of": "walk", "min": 4}],
                "mask": ["..????", "..????", "??????", "??????", "??????", "??????"]"#,
            ),
        ),
        (
            // Regions keep the exact export small: over the whole 6×6 grid it has 88,000
            // clauses that CaDiCaL needs seconds for.
            "chokepoints",
            spec(
                r#""connectivity": [{"class": "walk"}], "counts": [{"of": "walk", "min": 14}],
                "chokepoints": [{"class": "walk", "min": 1, "max": 2, "region": {"x": 2, "y": 2, "w": 4, "h": 4}},
                {"class": "walk", "loop": true, "region": {"x": 0, "y": 0, "w": 3, "h": 3}}]"#,
            ),
            spec(
                r#""chokepoints": [{"class": "walk", "loop": true}],
                "mask": [".?????", "xxxxxx", "??????", "??????", "??????", "??????"]"#,
            ),
        ),
        (
            "locks and keys",
            r#"{"width": 6, "height": 6, "tiles": [{"name": "wall", "glyph": "x", "weight": 2},
                {"name": "floor", "glyph": ".", "weight": 3, "classes": ["walk"]},
                {"name": "door", "glyph": "D", "weight": 0}],
                "layers": [{"name": "items", "values": [{"name": "none", "glyph": " "}, {"name": "key", "glyph": "k", "requires": "floor"}]}],
                "pins": [{"x": 0, "y": 0, "tile": "floor"}],
                "counts": [{"of": "door", "min": 1, "max": 2}, {"of": "items.key", "min": 1, "max": 1}, {"of": "walk", "min": 10}],
                "connectivity": [{"class": ["walk", "door"], "root": {"x": 0, "y": 0}}],
                "locks": [{"start": {"x": 0, "y": 0}, "through": "walk", "colors": [{"key": "items.key", "door": "door"}]}]}"#.to_string(),
            // The only key cell is behind the only door.
            r#"{"width": 6, "height": 1, "tiles": [{"name": "wall", "glyph": "x", "weight": 2},
                {"name": "floor", "glyph": ".", "weight": 3, "classes": ["walk"]},
                {"name": "door", "glyph": "D", "weight": 0}],
                "layers": [{"name": "items", "values": [{"name": "none", "glyph": " "}, {"name": "key", "glyph": "k", "requires": "floor"}]}],
                "mask": ["..D..."], "pins": [{"x": 0, "y": 0, "tile": "floor"}],
                "counts": [{"of": "items.key", "min": 1}, {"of": "items.key", "region": {"x": 0, "y": 0, "w": 2, "h": 1}, "max": 0}],
                "locks": [{"start": {"x": 0, "y": 0}, "through": "walk", "colors": [{"key": "items.key", "door": "door"}]}]}"#.to_string(),
        ),
        (
            "a path at least 12 steps long",
            spec(
                r#""pins": [{"x": 0, "y": 0, "tile": "floor"}, {"x": 5, "y": 0, "tile": "floor"}],
                "paths": [{"from": {"x": 0, "y": 0}, "to": {"x": 5, "y": 0}, "through": "walk", "min_length": 12, "max_length": 20}]"#,
            ),
            spec(
                r#""mask": ["??????", "xxxxxx", "xxxxxx", "xxxxxx", "xxxxxx", "xxxxxx"],
                "pins": [{"x": 0, "y": 0, "tile": "floor"}, {"x": 5, "y": 0, "tile": "floor"}],
                "paths": [{"from": {"x": 0, "y": 0}, "to": {"x": 5, "y": 0}, "through": "walk", "min_length": 6}]"#,
            ),
        ),
    ]
}

fn spec(json: &str) -> GridSpec {
    GridSpec::from_json(json).unwrap_or_else(|e| panic!("{e}\n{json}"))
}

/// The export of `spec` as `grim-encode` writes it, as text.
fn export(spec: &GridSpec, model: &GridModel) -> String {
    let mut out = Vec::new();
    write_encoding(
        spec,
        model,
        None,
        grim_formats::wcnf::Dialect::New,
        &mut out,
    )
    .unwrap();
    String::from_utf8(out).unwrap()
}

/// `cnf` with `clauses` appended and its header's clause count raised to match.
fn with_clauses(cnf: &str, clauses: &[Vec<Lit>]) -> String {
    let mut out = String::with_capacity(cnf.len());
    for line in cnf.lines() {
        if let Some(rest) = line.strip_prefix("p cnf ") {
            let mut it = rest.split_whitespace();
            let vars: usize = it.next().unwrap().parse().unwrap();
            let count: usize = it.next().unwrap().parse().unwrap();
            out.push_str(&format!("p cnf {vars} {}\n", count + clauses.len()));
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    for clause in clauses {
        for l in clause {
            // DIMACS variable v + 1 is our variable v (see `decode`).
            let v = l.var().index() as i64 + 1;
            out.push_str(&format!("{} ", if l.is_negative() { -v } else { v }));
        }
        out.push_str("0\n");
    }
    out
}

fn run(cadical: &Path, path: &PathBuf, text: &str) -> std::process::Output {
    std::fs::write(path, text).unwrap();
    Command::new(cadical).arg("-q").arg(path).output().unwrap()
}

#[test]
fn cadical_s_levels_of_each_family_s_export_pass_the_referee_and_a_clash_is_refuted() {
    let Some(cadical) = reference::tool("export_families", "cadical", "apt-get install cadical")
    else {
        return;
    };
    let path =
        std::env::temp_dir().join(format!("grim-export-families-{}.cnf", std::process::id()));
    let options = GridOptions::default();
    for (name, json, clash) in cases() {
        let spec = self::spec(&json);
        let model = GridModel::build(&spec, &options).unwrap_or_else(|e| panic!("{name}: {e}"));
        let cnf = export(&spec, &model);
        let mut blocked: Vec<Vec<Lit>> = Vec::new();
        for round in 0..3 {
            let out = run(&cadical, &path, &with_clauses(&cnf, &blocked));
            if round > 0 && out.status.code() == Some(20) {
                break; // fewer levels than rounds: every one was judged
            }
            assert_eq!(out.status.code(), Some(10), "{name}: round {round}");
            let (_, answer) = read_answer(&out.stdout[..], model.problem().num_vars()).unwrap();
            let Answer::Model { values, .. } = answer else {
                panic!("{name}: {answer:?}");
            };
            let ours: Vec<bool> = values.iter().map(|v| v.unwrap_or(false)).collect();
            let level = model.decode(&ours).expect("cadical's model decodes");
            assert_eq!(
                check_level(&spec, &level),
                Ok(()),
                "{name}, round {round}: the export admits a level the referee rejects\n{}",
                level.to_text(&spec)
            );
            let fixed = assumptions(&model, &spec, &level);
            blocked.push(
                fixed
                    .into_iter()
                    .filter(|l| l.is_positive())
                    .map(|l| !l)
                    .collect(),
            );
        }
        // The clash: no level in-process, and CaDiCaL refutes the export.
        let spec = self::spec(&clash);
        let (outcome, _) = grid::solve_with(
            &spec,
            &options,
            Budget::UNLIMITED,
            grid::ConnectivityStrategy::Lazy,
        )
        .unwrap_or_else(|e| panic!("{name} (clash): {e}"));
        assert!(
            matches!(outcome, GridOutcome::NoLevel { .. }),
            "{name}: the clash variant has a level: {outcome:?}"
        );
        let model = GridModel::build(&spec, &options).unwrap_or_else(|e| panic!("{name}: {e}"));
        let out = run(&cadical, &path, &export(&spec, &model));
        assert_eq!(out.status.code(), Some(20), "{name} (clash)");
    }
    let _ = std::fs::remove_file(&path);
}

#[test]
fn no_chokepoints_on_a_connected_class_export_exactly_the_referee_s_levels() {
    // The st-numbering encoding (chokepoints `max` 0 or `loop` over the whole grid, on a class
    // a connectivity rule keeps in one piece): under every fitting level's assumptions the
    // export is satisfiable exactly when the referee accepts the level. Grids of 4×4 and 5×4
    // with a few pins, so that every tiling is tried (2^12 each).
    let tiles =
        r#""tiles": [{"name": "a", "glyph": "a"}, {"name": "b", "glyph": "b", "classes": ["k"]}]"#;
    let cases = [
        format!(
            r#"{{"width": 4, "height": 4, {tiles}, "mask": ["????", "????", "b???", "aa?a"], "connectivity": [{{"class": "b"}}], "chokepoints": [{{"class": "b", "max": 0}}]}}"#
        ),
        format!(
            r#"{{"width": 4, "height": 4, {tiles}, "mask": ["a???", "?b??", "????", "a??a"], "connectivity": [{{"class": "k", "root": {{"x": 1, "y": 1}}}}], "chokepoints": [{{"class": "k", "loop": true}}]}}"#
        ),
        format!(
            r#"{{"width": 5, "height": 4, {tiles}, "mask": ["a???a", "??b??", "?????", "a?a?a"], "connectivity": [{{"class": "b"}}], "chokepoints": [{{"class": "b", "max": 0}}]}}"#
        ),
        format!(
            r#"{{"width": 5, "height": 4, {tiles}, "mask": ["b???a", "?????", "a??a?", "a???b"], "connectivity": [{{"class": "b"}}], "chokepoints": [{{"class": "b", "loop": true}}]}}"#
        ),
    ];
    for json in &cases {
        let spec = self::spec(json);
        let model = GridModel::build(&spec, &GridOptions::default()).unwrap();
        let chokepoint_vars = model
            .sizes()
            .iter()
            .find(|p| p.name.starts_with("chokepoints"))
            .map_or(0, |p| p.vars);
        assert!(
            chokepoint_vars < 40 * spec.cells(),
            "{json}: {chokepoint_vars} variables: not the linear encoding"
        );
        let w = model.to_wcnf();
        let mut s = grim_solver::Solver::new();
        s.reserve_vars(w.num_vars);
        for c in &w.hard {
            s.add_clause(c);
        }
        let (mut yes, mut no) = (0, 0);
        for level in fitting(&spec) {
            let expected = check_level(&spec, &level).is_ok();
            let got = s.solve(&assumptions(&model, &spec, &level), Budget::UNLIMITED);
            assert_eq!(
                got == grim_solver::Status::Sat,
                expected,
                "{json}\nlevel\n{}referee says {:?}",
                level.to_text(&spec),
                check_level(&spec, &level)
            );
            if expected { yes += 1 } else { no += 1 }
        }
        assert!(
            yes >= 10 && no >= 10,
            "{json}: accepted {yes}, rejected {no}"
        );
    }
}
