//! `grim-encode` as a designer and a script use it: encode → external solver (CaDiCaL) →
//! decode, `solve`, determinism per seed, the SVG picture, atomic output files, and every
//! malformed input answered with its message and a non-zero exit — never a panic.
//!
//! CaDiCaL is optional: without it the round-trip test prints `skipped: cadical not installed`
//! and passes, unless `GRIM_REQUIRE_REFERENCES=1` (then it fails). Install with
//! `apt-get install -y cadical`.

mod common;

use common::{Dir, ENCODE, SAT, p, stderr, stdout};
use grim_testkit::{assert_contains, assert_starts_with};
use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use grim_levels::decode::{Answer, read_answer};
use grim_levels::{self as grid, GridModel, GridOptions, GridSpec};
use grim_solver::Budget;

/// The instances of `instances/grid/`, relative to this crate.
fn instance(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../instances/grid")
        .join(name)
}

/// A small dungeon (the issue's rules on 8×8) written inline, so the tests do not depend on
/// the benchmark sizes.
fn dungeon_8() -> String {
    grim_testkit::grid::dungeon_json(8)
}

/// A temp directory for `test` holding [`dungeon_8`] as `d.json`, and that file's path.
fn dungeon_8_in(test: &str) -> (Dir, PathBuf) {
    let dir = Dir::new("grim-encode-test", test);
    let json = dir.file("d.json", dungeon_8());
    (dir, json)
}

fn encode(args: &[&str]) -> Output {
    Command::new(ENCODE)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run grim-encode")
}

/// Runs grim-encode with `args` and asserts that it exits 0, showing its stderr when not.
fn encoded(args: &[&str]) -> Output {
    let o = encode(args);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    o
}

/// Exit code, asserting the program was not killed and did not panic.
fn code(o: &Output) -> i32 {
    let err = stderr(o);
    assert!(!err.contains("panicked"), "grim-encode panicked:\n{err}");
    let c = o.status.code().expect("grim-encode was killed by a signal");
    assert_ne!(c, 101, "exit 101 is a panic:\n{err}");
    c
}

/// CaDiCaL, or `None` after saying the test is skipped; fails with
/// `GRIM_REQUIRE_REFERENCES=1`.
fn cadical(test: &str) -> Option<PathBuf> {
    grim_testkit::reference::tool(test, "cadical", "apt-get install cadical")
}

/// The level the library's `solve` gives for `text` (default options).
fn library_level(text: &str) -> (GridSpec, grid::Level) {
    let spec = GridSpec::from_json(text).expect("valid spec");
    let level = grid::solve(&spec, &GridOptions::default(), Budget::UNLIMITED)
        .expect("solved")
        .into_level()
        .expect("solved");
    (spec, level)
}

#[test]
fn encode_then_cadical_then_decode_gives_a_valid_level_that_agrees_with_solve() {
    let Some(cadical) = cadical("encode_then_cadical_then_decode") else {
        return;
    };
    let dir = Dir::new("grim-encode-test", "roundtrip");
    let cases: Vec<(String, PathBuf)> = vec![
        (
            "dungeon-8".to_string(),
            dir.file("dungeon-8.json", dungeon_8()),
        ),
        ("maze-15".to_string(), instance("maze-15.json")),
        (
            "terrain-directional".to_string(),
            instance("terrain-directional-20x10.json"),
        ),
        ("enclosure-16".to_string(), instance("enclosure-16.json")),
        ("islands-24".to_string(), instance("islands-24.json")),
    ];
    for (name, json) in &cases {
        let cnf = dir.path(&format!("{name}.cnf"));
        let o = encode(&[p(json), "-o", p(&cnf)]);
        assert_eq!(code(&o), 0, "{name}: encode failed: {}", stderr(&o));
        let text = fs::read_to_string(&cnf).unwrap();
        assert!(text.contains("\nc cell 0 0 "), "{name}: no cell comments");
        assert!(text.contains("\nc phase "), "{name}: no phase comments");
        assert!(text.contains("\np cnf "), "{name}: not a CNF");

        let run = Command::new(&cadical)
            .arg("-q")
            .arg(&cnf)
            .output()
            .expect("run cadical");
        assert_eq!(
            run.status.code(),
            Some(10),
            "{name}: cadical did not say SAT"
        );
        let solution = dir.file(&format!("{name}.out"), &run.stdout);

        let o = encode(&["decode", p(json), p(&solution)]);
        assert_eq!(
            code(&o),
            0,
            "{name}: decode rejected CaDiCaL's model: {}",
            stderr(&o)
        );
        assert!(
            stderr(&o).contains("check_level"),
            "{name}: decode does not say it re-checked: {}",
            stderr(&o)
        );

        // The same, in-process: CaDiCaL's level passes the referee; so does solve's, and the
        // CLI prints exactly the library's level.
        let json_text = fs::read_to_string(json).unwrap();
        let (spec, ours) = library_level(&json_text);
        let model = GridModel::build(&spec, &GridOptions::default()).unwrap();
        let (_, answer) = read_answer(run.stdout.as_slice(), model.to_wcnf().num_vars).unwrap();
        let Answer::Model { values, .. } = answer else {
            panic!("{name}: no model read")
        };
        let bools: Vec<bool> = values.iter().map(|v| v.unwrap_or(false)).collect();
        let theirs = model.decode(&bools).unwrap();
        assert_eq!(
            grid::check_level(&spec, &theirs),
            Ok(()),
            "{name}: CaDiCaL's level"
        );
        assert_eq!(
            grid::check_level(&spec, &ours),
            Ok(()),
            "{name}: solve's level"
        );
        assert_eq!((theirs.width, theirs.height), (ours.width, ours.height));
        assert_eq!(
            stdout(&o),
            theirs.to_text(&spec),
            "{name}: decode prints the level"
        );
        let o = encode(&["solve", p(json)]);
        assert_eq!(code(&o), 0, "{name}: solve failed: {}", stderr(&o));
        assert_eq!(
            stdout(&o),
            ours.to_text(&spec),
            "{name}: CLI and library differ"
        );
    }
}

#[test]
fn the_same_seed_gives_the_same_bytes_and_different_seeds_differ() {
    let (_dir, json) = dungeon_8_in("seeds");
    let solve = |seed: &str| {
        let o = encode(&["solve", p(&json), "--seed", seed]);
        assert_eq!(code(&o), 0, "solve --seed {seed}: {}", stderr(&o));
        o.stdout
    };
    let enc = |seed: &str| {
        let o = encode(&[p(&json), "--seed", seed]);
        assert_eq!(code(&o), 0, "encode --seed {seed}: {}", stderr(&o));
        o.stdout
    };
    assert_eq!(solve("1"), solve("1"), "solve is not deterministic");
    assert_eq!(enc("1"), enc("1"), "encode is not deterministic");
    assert_ne!(
        enc("1"),
        enc("2"),
        "the seed does not reach the phase hints"
    );
    let levels: Vec<Vec<u8>> = ["1", "2", "3"].iter().map(|s| solve(s)).collect();
    assert!(
        levels[0] != levels[1] || levels[1] != levels[2],
        "three seeds gave one level:\n{}",
        String::from_utf8_lossy(&levels[0])
    );
    // The file's seed is the default; --seed overrides it.
    let o = encode(&["solve", p(&json)]);
    assert_eq!(
        o.stdout,
        solve("7"),
        "the file's seed (7) is not the default"
    );
    assert!(String::from_utf8_lossy(&enc("9")).starts_with("c grim-encode grid 8 8 seed 9 "));
}

/// Minimal well-formedness: every tag closes in order, attribute values are quoted, text has
/// no raw `<` and only the five entities. Returns the number of `<rect class="tile"` tags.
fn check_svg(svg: &str) -> usize {
    let mut stack: Vec<String> = Vec::new();
    let mut tiles = 0;
    let mut rest = svg;
    let mut saw_root = false;
    while let Some(open) = rest.find('<') {
        check_text(rest.get(..open).unwrap());
        let after = rest.get(open + 1..).unwrap();
        let close = after.find('>').expect("unterminated tag");
        let tag = after.get(..close).unwrap();
        rest = after.get(close + 1..).unwrap();
        if let Some(name) = tag.strip_prefix('/') {
            let top = stack
                .pop()
                .unwrap_or_else(|| panic!("</{name}> closes nothing"));
            assert_eq!(top, name.trim(), "mismatched closing tag");
            continue;
        }
        let self_closing = tag.ends_with('/');
        let body = tag.trim_end_matches('/');
        let name = body
            .split_whitespace()
            .next()
            .expect("empty tag")
            .to_string();
        assert!(
            name.chars().all(|c| c.is_ascii_alphanumeric()),
            "bad tag name {name}"
        );
        // Attributes: name="value" pairs.
        let mut attrs = body.get(name.len()..).unwrap().trim();
        while !attrs.is_empty() {
            let eq = attrs
                .find("=\"")
                .unwrap_or_else(|| panic!("bad attribute in <{tag}>"));
            let value = attrs.get(eq + 2..).unwrap();
            let end = value.find('"').expect("unterminated attribute");
            check_text(value.get(..end).unwrap());
            attrs = value.get(end + 1..).unwrap().trim();
        }
        if name == "svg" {
            assert!(
                stack.is_empty() && !saw_root,
                "<svg> is not the single root"
            );
            saw_root = true;
        } else {
            assert!(!stack.is_empty(), "<{name}> outside <svg>");
        }
        if name == "rect" && tag.contains("class=\"tile\"") {
            tiles += 1;
        }
        if !self_closing {
            stack.push(name);
        }
    }
    check_text(rest);
    assert!(stack.is_empty(), "unclosed tags: {stack:?}");
    assert!(saw_root, "no <svg> root");
    tiles
}

fn check_text(text: &str) {
    assert!(!text.contains('>') || text.trim().is_empty() || !text.contains('<'));
    let mut rest = text;
    while let Some(i) = rest.find('&') {
        let entity = rest.get(i..).unwrap();
        assert!(
            ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"]
                .iter()
                .any(|e| entity.starts_with(e)),
            "stray & in {text:?}"
        );
        rest = entity.get(1..).unwrap();
    }
}

#[test]
fn the_svg_is_well_formed_with_one_tile_per_cell() {
    let dir = Dir::new("grim-encode-test", "svg");
    for (json, w, h) in [
        (dir.file("d.json", dungeon_8()), 8, 8),
        (instance("terrain-directional-20x10.json"), 20, 10),
    ] {
        let svg = dir.path("level.svg");
        encoded(&["solve", p(&json), "--svg", p(&svg)]);
        let text = fs::read_to_string(&svg).unwrap();
        assert_eq!(
            check_svg(&text),
            w * h,
            "tiles in the picture of {}",
            json.display()
        );
        assert!(text.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    }
    // A layer value shows up as a marker: the dungeon has exactly one key and one chest.
    let svg = dir.path("dungeon.svg");
    let o = encode(&["solve", p(&dir.path("d.json")), "--svg", p(&svg)]);
    assert_eq!(code(&o), 0);
    let text = fs::read_to_string(&svg).unwrap();
    assert_eq!(text.matches("items.key</title>").count(), 1);
    assert_eq!(text.matches("items.chest</title>").count(), 1);
}

#[test]
fn soft_rules_are_written_as_wcnf_in_either_dialect() {
    let (_dir, json) = dungeon_8_in("wcnf");
    let o = encoded(&[p(&json), "--preferences", "soft"]);
    let new = stdout(&o);
    assert!(
        new.lines().any(|l| l.starts_with("h ")),
        "no hard clause line"
    );
    assert!(!new.contains("\np "), "the new dialect has no header");
    let o = encoded(&[p(&json), "--preferences", "soft", "--wcnf", "old"]);
    assert!(stdout(&o).contains("\np wcnf "));
}

#[test]
fn a_soft_level_round_trips_through_a_maxsat_solver_s_output() {
    // showcase-12 has a weighted count: WCNF out, grim-sat's OLL (MaxSAT Evaluation output, a
    // `v 0101…` line) in, decoded and re-checked, at the optimum cost `solve` proves.
    let dir = Dir::new("grim-encode-test", "maxsat");
    let json = instance("showcase-12.json");
    let wcnf = dir.path("showcase.wcnf");
    encoded(&[p(&json), "-o", p(&wcnf)]);
    let run = Command::new(SAT).arg(&wcnf).output().expect("run grim-sat");
    assert_eq!(
        run.status.code(),
        Some(30),
        "grim-sat did not find the optimum"
    );
    let out = dir.file("showcase.out", &run.stdout);
    let o = encoded(&["decode", p(&json), p(&out)]);
    let err = stderr(&o);
    assert!(err.contains("(MaxSAT output) decoded"), "{err}");
    assert!(err.contains("check_level: every hard rule holds"), "{err}");
    let cost = |text: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix("grim-encode: cost "))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or_else(|| panic!("no cost line in: {text}"))
    };
    let solved = encoded(&["solve", p(&json)]);
    assert_eq!(cost(&err), cost(&stderr(&solved)), "different optima");
}

#[test]
fn output_files_are_replaced_only_on_success() {
    let dir = Dir::new("grim-encode-test", "atomic");
    let out = dir.file("out.cnf", "previous contents\n");
    let bad = dir.file("bad.json", "{\"width\": 0}");
    let o = encode(&[p(&bad), "-o", p(&out)]);
    assert_eq!(code(&o), 3);
    assert_eq!(fs::read_to_string(&out).unwrap(), "previous contents\n");
    let good = dir.file("good.json", dungeon_8());
    encoded(&[p(&good), "-o", p(&out)]);
    assert!(fs::read_to_string(&out).unwrap().contains("p cnf "));
    let names: Vec<_> = fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(
        names.iter().all(|n| !n.contains("grim-tmp")),
        "a temporary file was left: {names:?}"
    );
}

/// The names in `dir`, sorted.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

#[test]
fn the_streamed_export_writes_the_in_memory_writer_s_bytes_to_a_file_and_to_stdout() {
    // grim-encode streams the clauses through a scratch file (`StreamedExport`); the library's
    // in-memory writer is the reference, byte for byte: hints (CNF), soft wishes (WCNF, both
    // dialects), no seed. The scratch file, beside `-o`'s file or in TMPDIR for standard
    // output, is gone after each run.
    use grim_formats::wcnf::Dialect;
    let (dir, json) = dungeon_8_in("streamed");
    let tmpdir = Dir::new("grim-encode-test", "streamed-tmpdir");
    let spec = GridSpec::from_json(&dungeon_8()).unwrap();
    // Command-line arguments, and the options, seed and dialect they mean.
    type Case<'a> = (&'a [&'a str], Option<u64>, Option<bool>, Dialect);
    let cases: [Case; 4] = [
        (&["--seed", "3"], Some(3), None, Dialect::New),
        (
            &["--seed", "3", "--preferences", "soft"],
            Some(3),
            Some(true),
            Dialect::New,
        ),
        (
            &["--seed", "4", "--preferences", "soft", "--wcnf", "old"],
            Some(4),
            Some(true),
            Dialect::Old,
        ),
        (&[], None, None, Dialect::New),
    ];
    for (args, seed, soft_preferences, dialect) in cases {
        let options = GridOptions {
            seed,
            soft_preferences,
            count_ints: None,
            count_block: None,
        };
        let model = GridModel::build(&spec, &options).unwrap();
        let seed = seed.or(spec.preferences.as_ref().map(|p| p.seed));
        let mut held = Vec::new();
        grim_levels::encode::write_encoding(&spec, &model, seed, dialect, &mut held).unwrap();
        let out = dir.path("x.cnf");
        encoded(&[&[p(&json), "-o", p(&out)][..], args].concat());
        assert!(fs::read(&out).unwrap() == held, "-o, {args:?}");
        let o = Command::new(ENCODE)
            .arg(&json)
            .args(args)
            .env("TMPDIR", &tmpdir.0)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        assert!(o.stdout == held, "standard output, {args:?}");
        assert_eq!(names_in(&dir.0), ["d.json", "x.cnf"], "{args:?}");
        assert!(names_in(&tmpdir.0).is_empty(), "{args:?}");
    }
}

/// Runs grim-encode with `args` under a file size limit of `bytes` (`prlimit --fsize`, with
/// SIGXFSZ ignored so that a write past it fails with EFBIG instead of killing the process:
/// a disk that fills up). `None` when prlimit is missing.
#[cfg(unix)]
fn encode_limited(bytes: usize, args: &[&str]) -> Option<Output> {
    if Command::new("prlimit").arg("--version").output().is_err() {
        grim_testkit::reference::note("encode_limited", "prlimit (util-linux) is missing");
        return None;
    }
    let script = r#"trap "" XFSZ; exec prlimit --fsize="$0" -- "$@""#;
    Some(
        Command::new("sh")
            .args(["-c", script, &bytes.to_string(), ENCODE])
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap(),
    )
}

#[cfg(unix)]
#[test]
fn an_export_cut_off_by_a_full_disk_leaves_the_previous_file_and_nothing_else() {
    // Cut off while the clauses stream into the scratch file (100 bytes), and while the output
    // is assembled (the clause lines fit, the whole file does not): exit 4, the previous file
    // as it was, no temporary or scratch file left.
    let (dir, json) = dungeon_8_in("full-disk");
    let whole = encoded(&[p(&json), "--seed", "3"]).stdout;
    let text = String::from_utf8(whole.clone()).unwrap();
    let header_end = text.find("\np cnf ").unwrap() + 1;
    let header_end = header_end + text[header_end..].find('\n').unwrap() + 1;
    let clause_lines = whole.len() - header_end;
    let out = dir.file("out.cnf", "previous contents\n");
    for limit in [100, clause_lines + header_end / 2] {
        assert!(limit < whole.len());
        let Some(o) = encode_limited(limit, &[p(&json), "--seed", "3", "-o", p(&out)]) else {
            return;
        };
        assert_eq!(code(&o), 4, "limit {limit}: {}", stderr(&o));
        assert_contains(&stderr(&o), &["cannot write"]);
        assert_eq!(fs::read_to_string(&out).unwrap(), "previous contents\n");
        assert_eq!(names_in(&dir.0), ["d.json", "out.cnf"], "limit {limit}");
    }
    // And with room enough, the same bytes as standard output.
    let o = encode_limited(whole.len(), &[p(&json), "--seed", "3", "-o", p(&out)]).unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(fs::read(&out).unwrap() == whole);
}

#[cfg(unix)]
#[test]
fn the_export_of_a_32x32_dungeon_holds_none_of_its_clauses_in_memory() {
    // dungeon-32's export is 449,249 clauses (9.6 MB of DIMACS; 488,797 before issue 40's
    // size round); held in memory, as before the export was streamed, they took 74 MB at the
    // peak and no run fit in 32 MB of data (`prlimit --data`: heap and private mappings).
    // Streamed, the run needs about 7 MB.
    let dir = Dir::new("grim-encode-test", "bounded");
    let out = dir.path("d32.cnf");
    let spec = instance("dungeon-32.json");
    let mb = 24;
    let o = Command::new("prlimit")
        .arg(format!("--data={}", mb << 20))
        .arg("--")
        .arg(ENCODE)
        .args([p(&spec), "--seed", "1", "-o", p(&out)])
        .stdin(Stdio::null())
        .output();
    let Ok(o) = o else {
        grim_testkit::reference::note("the_export_of_a_32x32_dungeon", "prlimit is missing");
        return;
    };
    assert_eq!(code(&o), 0, "within {mb} MB: {}", stderr(&o));
    let text = fs::read_to_string(&out).unwrap();
    assert!(
        text.contains("\np cnf 170533 449249\n"),
        "not the whole export"
    );
}

/// `-o` and `--svg` write through what is not a regular file (issue 38: `-o /dev/null` as root
/// replaced the system's `/dev/null` with a regular file): a symlink keeps pointing where it
/// did and its target gets the bytes; a device stays a device.
#[cfg(unix)]
#[test]
fn output_through_symlinks_and_devices_writes_through_and_replaces_nothing() {
    use std::os::unix::fs::{FileTypeExt, symlink};
    let (dir, json) = dungeon_8_in("write-through");
    let target = dir.file("real.cnf", "previous contents\n");
    let link = dir.0.join("link.cnf");
    symlink("real.cnf", &link).unwrap();
    encoded(&[p(&json), "--seed", "3", "-o", p(&link)]);
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "-o replaced the link"
    );
    assert!(fs::read_to_string(&target).unwrap().contains("p cnf "));
    let svg_target = dir.file("real.svg", "old picture");
    let svg_link = dir.0.join("picture.svg");
    symlink(&svg_target, &svg_link).unwrap();
    encoded(&["solve", p(&json), "--seed", "3", "--svg", p(&svg_link)]);
    assert!(
        fs::symlink_metadata(&svg_link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        fs::read_to_string(&svg_target).unwrap().contains("<svg"),
        "the link's target got no picture"
    );
    // A link to /dev/null: written through, /dev/null stays the character device it was.
    let null_link = dir.0.join("null.cnf");
    symlink("/dev/null", &null_link).unwrap();
    encoded(&[p(&json), "--seed", "3", "-o", p(&null_link)]);
    assert!(
        fs::symlink_metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
    assert!(
        fs::symlink_metadata(&null_link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    // A device node of our own (needs root for mknod; the link above covers other users).
    let node = dir.0.join("mynull");
    let made = Command::new("mknod")
        .args(["-m", "666"])
        .arg(&node)
        .args(["c", "1", "3"])
        .output();
    if matches!(&made, Ok(o) if o.status.success()) {
        encoded(&[p(&json), "--seed", "3", "-o", p(&node)]);
        let kind = fs::symlink_metadata(&node).unwrap().file_type();
        assert!(
            kind.is_char_device(),
            "-o turned the device node into {kind:?}"
        );
    } else {
        grim_testkit::reference::note(
            "output_through_symlinks_and_devices",
            "the device node of its own: mknod failed (not root?)",
        );
    }
    let names: Vec<_> = fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(
        names.iter().all(|n| !n.contains("grim-tmp")),
        "a temporary was left: {names:?}"
    );
}

#[test]
fn malformed_grid_json_is_reported_with_its_field_and_a_non_zero_exit() {
    let dir = Dir::new("grim-encode-test", "malformed");
    let tiles = r##""tiles": [{"name": "wall", "glyph": "#"}, {"name": "floor", "glyph": "."}]"##;
    // (grid.json, what the message must contain)
    let cases: Vec<(String, &str)> = vec![
        ("{\"width\": 4,\n  \"height\": 4,,}".to_string(), ":2:"),
        (String::new(), ":1:"),
        (format!("{{\"width\": 0, \"height\": 4, {tiles}}}"), "width"),
        (format!("{{\"height\": 4, {tiles}}}"), "width"),
        (
            r###"{"width": 4, "height": 4, "tiles": [{"name": "wall", "glyph": "##"}]}"###
                .to_string(),
            "tiles[0].glyph",
        ),
        (
            r#"{"width": 4, "height": 4, "tiles": []}"#.to_string(),
            "tiles",
        ),
        (
            format!(
                r#"{{"width": 4, "height": 4, {tiles}, "adjacency": {{"forbid": [["wall", "lava"]]}}}}"#
            ),
            "lava",
        ),
        (
            format!(
                r#"{{"width": 4, "height": 4, {tiles}, "counts": [{{"of": "items.key", "min": 1}}]}}"#
            ),
            "counts[0].of",
        ),
        (
            format!(
                r#"{{"width": 4, "height": 4, {tiles}, "enclosure": [{{"class": "floor", "open": "floor", "max": 0.5}}]}}"#
            ),
            "enclosure[0].max",
        ),
        (
            format!(
                r#"{{"width": 4, "height": 4, {tiles}, "pins": [{{"x": 9, "y": 0, "tile": "wall"}}]}}"#
            ),
            "pins[0].x",
        ),
        (
            format!(r#"{{"width": 4, "height": 4, {tiles}, "colour": "red"}}"#),
            "colour",
        ),
        (
            format!(r#"{{"width": 4, "height": 4, {tiles}, "preferences": {{"mode": "maybe"}}}}"#),
            "preferences.mode",
        ),
        (
            format!(
                r#"{{"width": 4, "height": 4, {tiles}, "adjacency": {{"directional": [{{"tile": "wall", "dir": "up", "allow": ["floor"]}}]}}}}"#
            ),
            "dir",
        ),
    ];
    for (i, (json, expected)) in cases.iter().enumerate() {
        let path = dir.file(&format!("bad{i}.json"), json);
        for args in [
            vec![p(&path)],
            vec!["solve", p(&path)],
            vec!["decode", p(&path), p(&path)],
        ] {
            let o = encode(&args);
            let c = code(&o);
            let err = stderr(&o);
            assert_eq!(c, 3, "case {i} ({args:?}): exit {c}, stderr: {err}");
            assert!(
                err.starts_with("grim-encode: error: ") && err.contains(expected),
                "case {i} ({args:?}): expected {expected:?} in: {err}"
            );
            assert!(
                o.stdout.is_empty(),
                "case {i}: something was printed on stdout"
            );
        }
    }
    // Not UTF-8: the position of the first bad byte.
    let path = dir.file("latin1.json", b"{\"width\": 4,\n \"na\xefve\": 1}");
    let o = encode(&[p(&path)]);
    assert_eq!(code(&o), 3);
    assert!(stderr(&o).contains(":2:5: not UTF-8"), "{}", stderr(&o));
    // A missing file is an I/O error.
    let o = encode(&[p(&dir.path("nonexistent.json"))]);
    assert_eq!(code(&o), 4, "{}", stderr(&o));
}

#[test]
fn solver_outputs_are_checked_before_a_level_is_believed() {
    let (dir, json) = dungeon_8_in("outputs");
    let spec = GridSpec::from_json(&dungeon_8()).unwrap();
    let model = GridModel::build(&spec, &GridOptions::default()).unwrap();
    // A complete model of the exported encoding, from the engine through the Problem API.
    let solution = model
        .problem()
        .solve(Budget::UNLIMITED)
        .expect("it fits")
        .into_optimum()
        .expect("the dungeon is solvable");
    let values: Vec<bool> = solution.model().to_vec();
    let level = model.decode(&values).unwrap();
    // The exported file writes some auxiliary variables negated (`GridModel::export_negated`):
    // a solver's answer to it is in the file's orientation, which decode flips back.
    let negated = model.export_negated();
    let in_file = |values: &[bool]| -> Vec<bool> {
        values
            .iter()
            .enumerate()
            .map(|(i, &b)| b != negated.get(i).copied().unwrap_or(false))
            .collect()
    };
    let lits = |values: &[bool]| -> Vec<i64> {
        in_file(values)
            .iter()
            .enumerate()
            .map(|(i, &b)| if b { i as i64 + 1 } else { -(i as i64 + 1) })
            .collect()
    };
    let v_line = |lits: &[i64]| {
        let body: Vec<String> = lits.iter().map(|l| l.to_string()).collect();
        format!("c from a test\ns SATISFIABLE\nv {} 0\n", body.join(" "))
    };
    // SAT form and MaxSAT form (a 0/1 string) of the same model both decode to the level.
    let bits: String = in_file(&values)
        .iter()
        .map(|&b| if b { '1' } else { '0' })
        .collect();
    for (name, text) in [
        ("sat.out", v_line(&lits(&values))),
        ("maxsat.out", format!("o 0\ns OPTIMUM FOUND\nv {bits}\n")),
    ] {
        let out = dir.file(name, text);
        let o = encode(&["decode", p(&json), p(&out)]);
        assert_eq!(code(&o), 0, "{name}: {}", stderr(&o));
        assert_eq!(stdout(&o), level.to_text(&spec), "{name}");
        assert!(
            stderr(&o).contains("check_level: every hard rule holds"),
            "{name}: {}",
            stderr(&o)
        );
    }

    // A second key on a floor cell: the clauses and the referee both object (exit 1), and
    // the level is still printed so the designer sees what the solver claimed.
    let key = 2;
    let floor = spec.tiles.iter().position(|t| t.name == "floor").unwrap();
    let c = (0..spec.cells())
        .find(|&c| level.tiles[c] == floor && level.layers[0][c] == 0)
        .expect("a floor cell without an item");
    let (x, y) = (c % spec.width, c / spec.width);
    let mut broken = values.clone();
    for v in 0..4 {
        broken[model.layer_var(0, x, y, v).index()] = v == key;
    }
    let out = dir.file("two-keys.out", v_line(&lits(&broken)));
    let o = encode(&["decode", p(&json), p(&out)]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert_contains(&stderr(&o), &["falsifies hard clause"]);
    assert!(stderr(&o).contains("(check_level)"), "{}", stderr(&o));
    assert_eq!(stdout(&o).matches('k').count(), 2);

    // Unsatisfiable / unknown / malformed / incomplete outputs.
    let cases: [(&str, &str, i32, &str); 5] = [
        ("unsat.out", "s UNSATISFIABLE\n", 20, "UNSATISFIABLE"),
        ("unknown.out", "s UNKNOWN\n", 6, "UNKNOWN"),
        ("cut.out", "s SATISFIABLE\nv 1 -2 3\n", 3, "cut.out:"),
        (
            "short.out",
            "s SATISFIABLE\nv 1 -2 0\n",
            3,
            "does not assign variable",
        ),
        ("garbage.out", "hello\n", 3, "garbage.out:1:1"),
    ];
    for (name, text, want, message) in cases {
        let out = dir.file(name, text);
        let o = encode(&["decode", p(&json), p(&out)]);
        assert_eq!(code(&o), want, "{name}: {}", stderr(&o));
        assert!(stderr(&o).contains(message), "{name}: {}", stderr(&o));
    }
}

/// The towns of a printed islands level (`T`) that have water (`~`) right north of them.
fn towns_facing_water_north(text: &str) -> usize {
    let rows: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    (1..rows.len())
        .flat_map(|y| (0..rows[y].len()).map(move |x| (x, y)))
        .filter(|&(x, y)| rows[y][x] == 'T' && rows[y - 1].get(x) == Some(&'~'))
        .count()
}

#[test]
fn no_town_faces_water_to_the_north_through_solve_or_through_cadical() {
    // Issue 14: `{"tile": "town", "dir": "N", "forbid": ["water"]}` was applied inverted, and
    // every seed put water north of every town — also through CNF -> CaDiCaL -> decode.
    let json = instance("islands-24.json");
    for seed in ["1", "2", "3", "4", "5"] {
        let o = encode(&["solve", p(&json), "--seed", seed]);
        assert_eq!(code(&o), 0, "seed {seed}: {}", stderr(&o));
        let text = stdout(&o);
        assert!(text.contains('T'), "seed {seed}: no town:\n{text}");
        assert_eq!(towns_facing_water_north(&text), 0, "seed {seed}:\n{text}");
    }
    let Some(cadical) = cadical("no_town_faces_water_to_the_north") else {
        return;
    };
    let dir = Dir::new("grim-encode-test", "islands");
    let cnf = dir.path("islands.cnf");
    encoded(&[p(&json), "-o", p(&cnf)]);
    let run = Command::new(&cadical).arg("-q").arg(&cnf).output().unwrap();
    assert_eq!(run.status.code(), Some(10));
    let solution = dir.file("islands.out", &run.stdout);
    let o = encoded(&["decode", p(&json), p(&solution)]);
    assert!(stdout(&o).contains('T'));
    assert_eq!(towns_facing_water_north(&stdout(&o)), 0, "{}", stdout(&o));
}

#[test]
fn no_level_names_the_rules_that_clash_and_a_bad_root_is_an_input_error() {
    let dir = Dir::new("grim-encode-test", "clash");
    let json = dir.file(
        "repro.json",
        r#"{"width": 3, "height": 3,
            "tiles": [{"name": "a", "glyph": "a"}, {"name": "b", "glyph": "b"}, {"name": "c", "glyph": "c"}],
            "pins": [{"x": 1, "y": 1, "tile": "a"}, {"x": 1, "y": 0, "tile": "a"}],
            "adjacency": {"directional": [{"tile": "a", "dir": "N", "forbid": ["a"]}]}}"#,
    );
    let o = encode(&["solve", p(&json)]);
    assert_eq!(code(&o), 20, "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    assert!(
        stderr(&o).contains(
            "no level: pins[0] (x=1 y=1: a), pins[1] (x=1 y=0: a) and \
             adjacency.directional[0] (north of a: not a) cannot all hold"
        ),
        "{}",
        stderr(&o)
    );
    let json = dir.file(
        "root.json",
        r##"{"width": 3, "height": 3,
            "tiles": [{"name": "wall", "glyph": "#"}, {"name": "floor", "glyph": "."}],
            "mask": ["???", "?#?", "???"], "connectivity": [{"class": "floor", "root": {"x": 1, "y": 1}}]}"##,
    );
    for args in [vec!["solve", p(&json)], vec![p(&json)]] {
        let o = encode(&args);
        assert_eq!(code(&o), 3, "{}", stderr(&o));
        assert_contains(
            &stderr(&o),
            &["connectivity[0].root: cell x=1 y=1 cannot hold the class"],
        );
    }
}

#[test]
fn solve_reports_no_level_and_the_time_limit_with_their_exit_codes() {
    let dir = Dir::new("grim-encode-test", "nolevel");
    let json = dir.file(
        "impossible.json",
        r##"{"width": 3, "height": 3,
            "tiles": [{"name": "wall", "glyph": "#"}, {"name": "floor", "glyph": "."}],
            "counts": [{"of": "floor", "min": 5}, {"of": "wall", "min": 5}]}"##,
    );
    let o = encode(&["solve", p(&json)]);
    assert_eq!(code(&o), 20, "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    assert!(
        stderr(&o).contains(
            "no level: counts[0] (of floor, min 5) and counts[1] (of wall, min 5) cannot both hold"
        ),
        "{}",
        stderr(&o)
    );
    let o = encode(&["solve", p(&instance("dungeon-64.json")), "--time", "0.001"]);
    assert_eq!(code(&o), 6, "{}", stderr(&o));
    assert!(stderr(&o).contains("time limit"), "{}", stderr(&o));
}

#[test]
fn a_soft_solve_stopped_early_prints_its_best_level_with_the_bounds_and_exits_6() {
    // showcase-12 soft, seed 2, needs a few thousand conflicts to prove its optimum; 200 find
    // levels but prove nothing.
    let spec_path = instance("showcase-12.json");
    let args = [
        "solve",
        p(&spec_path),
        "--seed",
        "2",
        "--preferences",
        "soft",
    ];
    let o = encode(&[&args[..], &["--conflicts", "200"]].concat());
    assert_eq!(code(&o), 6, "{}", stderr(&o));
    let err = stderr(&o);
    let numbers: Vec<u64> = err
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_contains(&err, &["conflict budget", "before the optimum was proven"]);
    let [cost, lower] = numbers[..] else {
        panic!("a cost and a lower bound in: {err}");
    };
    // The level printed is whole, passes the referee, and costs what the message says.
    let text = std::fs::read_to_string(&spec_path).unwrap();
    let spec = GridSpec::from_json(&text).unwrap();
    let level = grid::Level::from_text(&spec, &stdout(&o)).expect("a level on stdout");
    assert_eq!(grid::check_level(&spec, &level), Ok(()));
    let options = GridOptions {
        seed: Some(2),
        soft_preferences: Some(true),
        ..GridOptions::default()
    };
    assert_eq!(grid::level_cost(&spec, &options, &level), cost);
    // The bounds hold around the optimum the unlimited solve proves.
    let o = encoded(&args);
    let best = grid::Level::from_text(&spec, &stdout(&o)).expect("the optimum");
    let optimum = grid::level_cost(&spec, &options, &best);
    assert!(
        lower <= optimum && optimum <= cost,
        "{lower} <= {optimum} <= {cost}"
    );
}

#[test]
fn a_verbose_export_writes_the_same_bytes_and_reports_only_on_stderr() {
    // `-v` wraps the writer in a progress reporter (issue 40): it must pass every byte through,
    // to a file and to standard output alike, and say what it says on stderr only.
    let (dir, json) = dungeon_8_in("verbose-export");
    for extra in [&[][..], &["--preferences", "soft"][..]] {
        let plain = encoded(&[&[p(&json), "--seed", "3"][..], extra].concat());
        let verbose = encoded(&[&[p(&json), "--seed", "3", "-v"][..], extra].concat());
        assert_eq!(plain.stdout, verbose.stdout, "stdout export, {extra:?}");
        assert!(!plain.stdout.is_empty());
        let (a, b) = (dir.path("a.cnf"), dir.path("b.cnf"));
        encoded(&[&[p(&json), "--seed", "3", "-o", p(&a)][..], extra].concat());
        let v = encoded(&[&[p(&json), "--seed", "3", "-v", "-o", p(&b)][..], extra].concat());
        assert_eq!(
            std::fs::read(&a).expect("a.cnf"),
            std::fs::read(&b).expect("b.cnf"),
            "file export, {extra:?}"
        );
        let err = stderr(&v);
        assert_contains(&err, &["model built in", "model built and written in"]);
        for line in err.lines().filter(|l| l.starts_with("grim-encode: ")) {
            let known = [
                "grim-encode: model built",
                "grim-encode: building the model: ",
                "grim-encode: writing: ",
                "grim-encode: warning: ",
                "grim-encode: wrote ",
            ];
            assert!(
                known.iter().any(|k| line.starts_with(k)),
                "an unexpected line: {line}"
            );
        }
    }
}

#[test]
fn an_export_with_seeded_hints_warns_that_other_solvers_ignore_them_and_names_the_soft_way() {
    let (_dir, json) = dungeon_8_in("hint-warning");
    let hinted = encoded(&[p(&json), "--seed", "3"]);
    let warning = stderr(&hinted);
    assert_contains(&warning, &["warning", "`c phase`", "--preferences soft"]);
    assert!(
        !warning.contains("  "),
        "a run of spaces inside the warning: {warning:?}"
    );
    // The soft export carries the wishes as clauses every MaxSAT solver reads: no warning.
    let soft = encoded(&[p(&json), "--seed", "3", "--preferences", "soft"]);
    assert!(!stderr(&soft).contains("warning"), "{}", stderr(&soft));
    // And it has the wishes as soft clauses (a line with a weight, not `h`).
    let text = String::from_utf8_lossy(&soft.stdout).into_owned();
    assert!(
        text.lines()
            .any(|l| l.starts_with(|c: char| c.is_ascii_digit())),
        "no soft clause in the soft export"
    );
}

#[test]
fn solve_verbose_prints_progress_on_stderr_only_and_the_same_level() {
    let (_dir, json) = dungeon_8_in("verbose");
    let quiet = encode(&["solve", p(&json), "--seed", "5"]);
    let verbose = encode(&["solve", p(&json), "--seed", "5", "-v"]);
    assert_eq!(code(&quiet), 0, "{}", stderr(&quiet));
    assert_eq!(code(&verbose), 0, "{}", stderr(&verbose));
    // Progress observes the search: the level is byte for byte the same.
    assert_eq!(quiet.stdout, verbose.stdout);
    // A level this small is solved before the first report is due; every line that does
    // appear has the documented shape.
    for line in stderr(&verbose).lines() {
        assert_starts_with(line, "grim-encode: solve: ");
        assert_contains(line, &["conflicts"]);
    }
}

/// `-v` on a soft level runs the anytime schedule: a line per better level, costs falling, the
/// last one the proven optimum, which the quiet run proves too.
#[test]
fn solve_verbose_on_a_soft_level_prints_each_better_level() {
    let (_dir, json) = dungeon_8_in("verbose-soft");
    let args = ["solve", p(&json), "--seed", "5", "--preferences", "soft"];
    let quiet = encode(&args);
    let verbose = encode(&[&args[..], &["-v"]].concat());
    assert_eq!(code(&quiet), 0, "{}", stderr(&quiet));
    assert_eq!(code(&verbose), 0, "{}", stderr(&verbose));
    let cost_of = |text: &str| -> Option<u64> {
        let line = text.lines().find(|l| l.contains("proven least"))?;
        line.split("cost ").nth(1)?.split(' ').next()?.parse().ok()
    };
    let optimum = cost_of(&stderr(&quiet)).expect("the quiet run proves an optimum");
    assert_eq!(cost_of(&stderr(&verbose)), Some(optimum));
    let mut costs = Vec::new();
    for line in stderr(&verbose)
        .lines()
        .filter(|l| l.contains("a level of cost"))
    {
        assert_starts_with(line, "grim-encode: solve: a level of cost ");
        assert_contains(line, &["no level costs less than", "s CPU"]);
        let cost: u64 = line["grim-encode: solve: a level of cost ".len()..]
            .split(',')
            .next()
            .and_then(|c| c.parse().ok())
            .expect("a cost");
        costs.push(cost);
    }
    assert!(!costs.is_empty(), "no level line: {}", stderr(&verbose));
    assert!(costs.windows(2).all(|w| w[1] < w[0]), "{costs:?}");
    assert_eq!(costs.last(), Some(&optimum));
}

/// The level blocks of `solve --count` output: each level's text (tile rows, then each
/// layer's rows under its name), the levels separated by one empty line.
fn split_levels(spec: &GridSpec, text: &str) -> Vec<grid::Level> {
    let per = spec.height + spec.layers.len() * (spec.height + 2);
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut at = 0;
    while at < lines.len() {
        let block = lines[at..at + per].join("\n") + "\n";
        out.push(grid::Level::from_text(spec, &block).unwrap_or_else(|e| panic!("{e}\n{block}")));
        at += per;
        if at < lines.len() {
            assert_eq!(lines[at], "", "no empty line between two levels");
            at += 1;
        }
    }
    out
}

#[test]
fn solve_keep_regenerates_only_the_region_and_names_the_kept_cells_that_clash() {
    let (dir, json) = dungeon_8_in("keep");
    let spec = GridSpec::from_json(&dungeon_8()).unwrap();
    let first = encoded(&["solve", p(&json), "--seed", "3"]);
    let kept_file = dir.file("level.txt", &first.stdout);
    let kept = grid::Level::from_text(&spec, &stdout(&first)).unwrap();
    let region = grid::Region {
        x: 2,
        y: 1,
        w: 4,
        h: 4,
    };
    let o = encoded(&[
        "solve",
        p(&json),
        "--seed",
        "4",
        "--keep",
        p(&kept_file),
        "--region",
        "2,1,4,4",
    ]);
    let new = grid::Level::from_text(&spec, &stdout(&o)).unwrap();
    assert_eq!(grid::check_level(&spec, &new), Ok(()));
    let keep = grid::Keep::outside(&spec, kept.clone(), region).unwrap();
    assert_eq!(keep.changed_cell(&new), None, "{}", stdout(&o));
    // The library's answer, byte for byte, and the same again.
    let options = GridOptions {
        seed: Some(4),
        soft_preferences: None,
        ..GridOptions::default()
    };
    let lib = grid::solve_region(&spec, &keep, &options, Budget::UNLIMITED).unwrap();
    assert_eq!(lib.level().map(|l| l.to_text(&spec)), Some(stdout(&o)));
    let again = encoded(&[
        "solve",
        p(&json),
        "--seed",
        "4",
        "--keep",
        p(&kept_file),
        "--region",
        "2,1,4,4",
    ]);
    assert_eq!(again.stdout, o.stdout);

    // A second key kept outside the region: no level, and the message names that kept cell.
    let floor = spec.tiles.iter().position(|t| t.name == "floor").unwrap();
    let c = (0..spec.cells())
        .find(|&c| {
            kept.tiles[c] == floor
                && kept.layers[0][c] == 0
                && !region.contains(c % spec.width, c / spec.width)
        })
        .expect("a free floor cell outside the region");
    let mut two_keys = kept.clone();
    two_keys.layers[0][c] = 2;
    let two_file = dir.file("two-keys.txt", two_keys.to_text(&spec));
    let o = encode(&[
        "solve",
        p(&json),
        "--keep",
        p(&two_file),
        "--region",
        "2,1,4,4",
    ]);
    assert_eq!(code(&o), 20, "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    let (x, y) = (c % spec.width, c / spec.width);
    assert_contains(
        &stderr(&o),
        &[
            "no level: ",
            &format!("keep (x={x} y={y}: items key)"),
            "counts[1]",
            "kept outside --region",
        ],
    );

    // Mistakes: each named, with its exit code.
    let bad_glyph = dir.file("bad.txt", stdout(&first).replacen('#', "X", 1));
    let missing = dir.path("missing.txt");
    let (line, column) = stdout(&first)
        .lines()
        .enumerate()
        .find_map(|(i, l)| l.find('#').map(|j| (i + 1, l[..j].chars().count() + 1)))
        .unwrap();
    let cases: [(&[&str], i32, String); 6] = [
        (
            &["--keep", p(&kept_file), "--region", "6,6,4,4"],
            2,
            "--region 6,6,4,4: the region x=6 y=6 w=4 h=4 reaches outside the 8x8 grid".into(),
        ),
        (
            &["--keep", p(&kept_file), "--region", "0,0,0,3"],
            2,
            "is empty".into(),
        ),
        (
            &["--keep", p(&kept_file), "--region", "1,2,3"],
            2,
            "is not a region: expected X,Y,W,H".into(),
        ),
        (&["--keep", p(&kept_file)], 2, "--region".into()),
        (
            &["--keep", p(&bad_glyph), "--region", "0,0,2,2"],
            3,
            format!("bad.txt:{line}:{column}: "),
        ),
        (
            &["--keep", p(&missing), "--region", "0,0,2,2"],
            4,
            "missing.txt".into(),
        ),
    ];
    for (args, want, message) in cases {
        let mut all = vec!["solve", p(&json)];
        all.extend_from_slice(args);
        let o = encode(&all);
        assert_eq!(code(&o), want, "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(&message), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn solve_count_prints_distinct_levels_one_after_another_and_says_when_fewer_exist() {
    let (dir, json) = dungeon_8_in("count");
    let spec = GridSpec::from_json(&dungeon_8()).unwrap();
    let o = encoded(&[
        "solve",
        p(&json),
        "--seed",
        "3",
        "--count",
        "3",
        "--distinct",
        "10",
    ]);
    let levels = split_levels(&spec, &stdout(&o));
    assert_eq!(levels.len(), 3);
    for (i, l) in levels.iter().enumerate() {
        assert_eq!(grid::check_level(&spec, l), Ok(()));
        for e in &levels[..i] {
            assert!(e.distance_to(l) >= 10, "{} cells apart", e.distance_to(l));
        }
    }
    assert_contains(
        &stderr(&o),
        &[
            "level 1 of 3",
            "level 3 of 3",
            "cells from the closest earlier level",
        ],
    );
    // The first is the level `solve` prints for the seed; the whole output is deterministic.
    let one = encoded(&["solve", p(&json), "--seed", "3"]);
    assert_eq!(levels[0].to_text(&spec), stdout(&one));
    let again = encoded(&[
        "solve",
        p(&json),
        "--seed",
        "3",
        "--count",
        "3",
        "--distinct",
        "10",
    ]);
    assert_eq!(again.stdout, o.stdout);

    // Four levels in all, and no third one 2 cells from both of the first two.
    let tiny = dir.file(
        "tiny.json",
        r#"{"width": 2, "height": 1, "tiles": [{"name": "a", "glyph": "a"}, {"name": "b", "glyph": "b"}]}"#,
    );
    let o = encoded(&["solve", p(&tiny), "--count", "5", "--distinct", "2"]);
    let tiny_spec = GridSpec::from_json(&fs::read_to_string(&tiny).unwrap()).unwrap();
    let levels = split_levels(&tiny_spec, &stdout(&o));
    assert_eq!(levels.len(), 2);
    assert_eq!(levels[0].distance_to(&levels[1]), 2);
    assert_contains(&stderr(&o), &["only 2 levels", "at least 2 cells (proven)"]);

    let cases: [&[&str]; 5] = [
        &["--distinct", "3"],
        &["--count", "0"],
        &["--count", "2", "--distinct", "0"],
        &["--count", "2", "--keep", "x.txt", "--region", "0,0,1,1"],
        &["--count", "2", "--connectivity", "lazy"],
    ];
    for args in cases {
        let mut all = vec!["solve", p(&json)];
        all.extend_from_slice(args);
        let o = encode(&all);
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn decoding_another_spec_s_output_says_the_variable_map_does_not_fit() {
    let (dir, json) = dungeon_8_in("misfit");
    // A model of the 9x9 dungeon's encoding, decoded against the 8x8 one: more variables
    // than it has; and a 7x7 one's: too few for its cells, or cells without a tile.
    for size in [9, 7, 6] {
        let spec = GridSpec::from_json(&grim_testkit::grid::dungeon_json(size)).unwrap();
        let model = GridModel::build(&spec, &GridOptions::default()).unwrap();
        let solution = model
            .problem()
            .solve(Budget::UNLIMITED)
            .unwrap()
            .into_optimum()
            .unwrap();
        let body: Vec<String> = (solution.model().iter().enumerate())
            .map(|(i, &b)| {
                if b {
                    format!("{}", i + 1)
                } else {
                    format!("-{}", i + 1)
                }
            })
            .collect();
        let out = dir.file(
            &format!("d{size}.out"),
            format!("s SATISFIABLE\nv {} 0\n", body.join(" ")),
        );
        let o = encode(&["decode", p(&json), p(&out)]);
        assert_eq!(code(&o), 3, "{size}: {}", stderr(&o));
        assert_contains(
            &stderr(&o),
            &[
                "the variable map does not fit",
                "was it solved from this grid.json's encoding?",
            ],
        );
        assert!(!stderr(&o).contains("error: d"), "{}", stderr(&o));
    }
}
