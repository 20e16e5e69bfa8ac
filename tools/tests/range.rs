//! `grim-encode describe` and `grim-encode range` as a designer runs them: the table and JSON of
//! a shipped spec's level, a range over seeds (one CSV row per seed holding the values
//! `describe` gives in process, a well-formed SVG whose heatmap counts every level), the same
//! levels read back as files from another "generator", and the mistakes a user makes answered
//! with a message and an exit code.

mod common;

use common::{Dir, ENCODE, p, stderr, stdout};
use grim_testkit::assert_contains;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use grim_levels::range::{Label, Metric, Range, RowInfo, RowStatus};
use grim_levels::{GridOptions, GridSpec, Level, describe};

fn encode(args: &[&str]) -> Output {
    Command::new(ENCODE)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run grim-encode")
}

/// Exit code, asserting the program was not killed and did not panic.
fn code(o: &Output) -> i32 {
    let err = stderr(o);
    assert!(!err.contains("panicked"), "grim-encode panicked:\n{err}");
    o.status.code().expect("grim-encode was killed by a signal")
}

fn instance(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../instances/grid")
        .join(name)
}

/// The level `grim_levels::solve` gives for `seed`.
fn solved(spec: &GridSpec, seed: u64) -> Level {
    let options = GridOptions {
        seed: Some(seed),
        ..GridOptions::default()
    };
    grim_testkit::grid::solve_level(spec, &options)
}

/// The CSV fields of `describe`'s scalars for `level`, as `range` writes them.
fn described(spec: &GridSpec, level: &Level) -> Vec<String> {
    describe(spec, level)
        .scalars()
        .into_iter()
        .map(|s| s.value.map(|v| v.to_string()).unwrap_or_default())
        .collect()
}

/// A minimal XML well-formedness check: every tag closed in order, attribute quotes paired,
/// every `&` an entity. Returns the number of elements.
fn well_formed(xml: &str) -> usize {
    let mut stack: Vec<String> = Vec::new();
    let mut elements = 0;
    let mut rest = xml;
    while let Some(open) = rest.find('<') {
        let text = &rest[..open];
        check_entities(text);
        let close = rest[open..].find('>').expect("an unclosed tag") + open;
        let tag = &rest[open + 1..close];
        assert_eq!(tag.matches('"').count() % 2, 0, "unpaired quote in <{tag}>");
        check_entities(tag);
        if let Some(name) = tag.strip_prefix('/') {
            let top = stack
                .pop()
                .unwrap_or_else(|| panic!("</{name}> closes nothing"));
            assert_eq!(top, name.trim(), "</{name}> closes <{top}>");
        } else if !tag.starts_with('?') && !tag.starts_with('!') {
            elements += 1;
            if !tag.ends_with('/') {
                let name = tag.split_whitespace().next().expect("a tag name");
                stack.push(name.to_string());
            }
        }
        rest = &rest[close + 1..];
    }
    check_entities(rest);
    assert!(stack.is_empty(), "unclosed elements: {stack:?}");
    elements
}

fn check_entities(text: &str) {
    for (i, _) in text.match_indices('&') {
        let after = &text[i + 1..];
        assert!(
            ["amp;", "lt;", "gt;", "quot;", "apos;", "#"]
                .iter()
                .any(|e| after.starts_with(e)),
            "a bare & in {text:?}"
        );
    }
}

/// The `data-count` values of the heatmap's bins.
fn bin_counts(svg: &str) -> Vec<usize> {
    svg.match_indices(r#"class="bin" data-count=""#)
        .map(|(i, m)| {
            let digits: String = svg[i + m.len()..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            digits.parse().expect("a count")
        })
        .collect()
}

/// Splits a CSV without quoted fields (the tests' names need none).
fn csv_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

#[test]
fn describe_prints_the_table_or_the_json_of_the_level_it_solves_or_reads() {
    let path = instance("dungeon-12.json");
    let spec =
        GridSpec::from_json(&fs::read_to_string(&path).expect("shipped spec")).expect("valid");
    let level = solved(&spec, 3);
    let want = describe(&spec, &level);

    let o = encode(&["describe", p(&path), "--seed", "3"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), want.to_text());
    let o = encode(&["describe", p(&path), "--seed", "3", "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), want.to_json());

    // The level as `solve` prints it, described from the file: the same description.
    let dir = Dir::new("grim-range-test", "describe");
    let solve = encode(&["solve", p(&path), "--seed", "3"]);
    assert_eq!(code(&solve), 0, "{}", stderr(&solve));
    let file = dir.file("level.txt", stdout(&solve));
    let out = dir.path("d.json");
    let o = encode(&["describe", p(&path), p(&file), "--json", "-o", p(&out)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(fs::read_to_string(&out).expect("written"), want.to_json());
}

#[test]
fn describe_refuses_a_level_that_does_not_fit_and_a_seed_beside_a_level() {
    let path = instance("dungeon-12.json");
    let dir = Dir::new("grim-range-test", "describe-errors");
    let bad = dir.file("bad.txt", "#.#\n");
    let o = encode(&["describe", p(&path), p(&bad)]);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert_contains(
        &stderr(&o),
        &[&format!("{}:1:4: row 0 of the tiles has 3 glyphs", p(&bad))],
    );
    let o = encode(&["describe", p(&path), p(&bad), "--seed", "3"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    let o = encode(&["describe", p(&path), p(&dir.path("missing.txt"))]);
    assert_eq!(code(&o), 4, "{}", stderr(&o));
}

#[test]
fn range_over_seeds_writes_a_row_per_seed_and_a_picture_of_them_all() {
    let (dir, json) = Dir::new("grim-range-test", "seeds")
        .with_file("d.json", grim_testkit::grid::dungeon_json(8));
    let spec = GridSpec::from_json(&grim_testkit::grid::dungeon_json(8)).expect("valid");
    let (csv, svg) = (dir.path("r.csv"), dir.path("r.svg"));
    let o = encode(&[
        "range",
        p(&json),
        "--seeds",
        "0..4",
        "--csv",
        p(&csv),
        "--svg",
        p(&svg),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    for k in 1..=4 {
        assert_contains(
            &stderr(&o),
            &[&format!("range: {k} of 4: seed {}: level", k - 1)],
        );
    }

    let rows = csv_rows(&fs::read_to_string(&csv).expect("CSV written"));
    let names = grim_levels::describe::scalar_names(&spec);
    let header: Vec<&str> = ["seed", "status", "cost", "cpu_s", "wall_s"]
        .into_iter()
        .chain(names.iter().map(String::as_str))
        .collect();
    assert_eq!(rows[0], header);
    assert_eq!(rows.len(), 5, "a header and one row per seed");
    for (seed, row) in rows[1..].iter().enumerate() {
        assert_eq!(row[0], seed.to_string());
        assert_eq!(row[1], "level");
        assert_eq!(row[2], "", "nothing is soft: no cost");
        assert!(row[4].parse::<f64>().is_ok(), "wall seconds: {:?}", row[4]);
        let level = solved(&spec, seed as u64);
        assert_eq!(row[5..], described(&spec, &level)[..], "seed {seed}");
    }

    let picture = fs::read_to_string(&svg).expect("SVG written");
    assert!(well_formed(&picture) > 10);
    assert_eq!(
        bin_counts(&picture).iter().sum::<usize>(),
        4,
        "the heatmap counts every level"
    );
    assert_eq!(picture.matches(r#"<circle class="level""#).count(), 4);
    let thumbnails = picture.matches(r#"<g class="thumbnail">"#).count();
    assert!((1..=4).contains(&thumbnails), "{thumbnails} thumbnails");
    assert_eq!(
        picture.matches(r#"<rect class="tile""#).count(),
        thumbnails * 64
    );
    assert_contains(&picture, &["floor.open_fraction"]);
    assert_contains(&picture, &["floor.dead_ends"]);

    // Same seeds, same picture, byte for byte (the CSV differs only in its times).
    let again = dir.path("again.svg");
    let o = encode(&[
        "range",
        p(&json),
        "--seeds",
        "0..4",
        "--csv",
        p(&dir.path("x.csv")),
        "--svg",
        p(&again),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(fs::read_to_string(&again).expect("written"), picture);
}

#[test]
fn range_over_level_files_describes_another_generators_levels() {
    let text = grim_testkit::grid::dungeon_json(8);
    let (dir, json) = Dir::new("grim-range-test", "files").with_file("d.json", &text);
    let spec = GridSpec::from_json(&text).expect("valid");
    let levels = dir.path("levels");
    fs::create_dir(&levels).expect("mkdir");
    for seed in 0..3u64 {
        let level = solved(&spec, seed);
        fs::write(
            levels.join(format!("seed-{seed}.txt")),
            level.to_text(&spec),
        )
        .expect("write");
    }
    fs::write(levels.join("notes.md"), "not a level").expect("write");
    // A level with a second key: readable, but it breaks `items.key` max 1.
    let mut broken = solved(&spec, 0);
    let none = broken.layers[0]
        .iter()
        .position(|&v| v == 0)
        .expect("a free cell");
    let floor = (0..broken.tiles.len()).find(|&c| broken.tiles[c] == 1 && broken.layers[0][c] == 0);
    let c = floor.unwrap_or(none);
    broken.tiles[c] = 1;
    broken.layers[0][c] = 2;
    let extra = dir.file("two-keys.txt", broken.to_text(&spec));

    let csv = dir.path("files.csv");
    let o = encode(&[
        "range",
        p(&json),
        "--levels",
        p(&levels),
        p(&extra),
        "--csv",
        p(&csv),
        "--x",
        "passable.cycle_rank",
        "--y",
        "floor.bridges",
        "--svg",
        p(&dir.path("f.svg")),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let rows = csv_rows(&fs::read_to_string(&csv).expect("CSV written"));
    assert_eq!(rows[0][0], "level");
    assert_eq!(
        rows.len(),
        5,
        "three files of the directory (not notes.md) and one more"
    );
    for seed in 0..3u64 {
        let row = &rows[1 + seed as usize];
        assert_eq!(row[0], p(&levels.join(format!("seed-{seed}.txt"))));
        assert_eq!(row[1], "valid");
        assert_eq!(
            (row[3].as_str(), row[4].as_str()),
            ("", ""),
            "no times for files"
        );
        assert_eq!(row[5..], described(&spec, &solved(&spec, seed))[..]);
    }
    assert_eq!(rows[4][1], "invalid");
    assert_eq!(rows[4][5..], described(&spec, &broken)[..]);

    // A file that is not a level of the spec stops the range before anything is written.
    let bad = dir.file("bad.txt", "#\n");
    let o = encode(&[
        "range",
        p(&json),
        "--levels",
        p(&bad),
        "--csv",
        p(&dir.path("none.csv")),
    ]);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert_contains(&stderr(&o), &[&format!("{}:1:2:", p(&bad))]);
    assert!(!dir.path("none.csv").exists());
}

#[test]
fn range_names_the_measures_and_refuses_unknown_ones() {
    let text = grim_testkit::grid::dungeon_json(8);
    let (_dir, json) = Dir::new("grim-range-test", "metrics").with_file("d.json", &text);
    let spec = GridSpec::from_json(&text).expect("valid");
    let o = encode(&["range", p(&json), "--list-metrics"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let listed: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
    assert_eq!(listed, grim_levels::describe::scalar_names(&spec));

    let o = encode(&["range", p(&json), "--seeds", "0..2", "--x", "floor.loops"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert_contains(&stderr(&o), &["no measure named `floor.loops`"]);
    assert_contains(&stderr(&o), &["--list-metrics"]);
    for bad in ["5..5", "x..3", "3..1"] {
        let o = encode(&["range", p(&json), "--seeds", bad]);
        assert_eq!(code(&o), 2, "--seeds {bad}: {}", stderr(&o));
    }
    let o = encode(&["range", p(&json)]);
    assert_eq!(code(&o), 2, "neither --seeds nor --levels: {}", stderr(&o));
}

#[test]
fn a_range_in_process_quotes_file_names_and_keeps_the_first_of_equal_extremes() {
    let text = grim_testkit::grid::dungeon_json(8);
    let spec = GridSpec::from_json(&text).expect("valid");
    let x = Metric::named(&spec, "floor.cells").expect("a measure");
    let y = Metric::named(&spec, "floor.dead_ends").expect("a measure");
    let level = solved(&spec, 1);
    let mut range = Range::new(&spec, x, y);
    for name in ["a,b.txt", "say \"hi\".txt"] {
        range.add(
            RowInfo {
                label: Label::File(name.to_string()),
                status: RowStatus::Valid,
                cost: None,
                cpu_seconds: None,
                wall_seconds: None,
            },
            Some(&level),
        );
    }
    range.add(
        RowInfo {
            label: Label::File("none".to_string()),
            status: RowStatus::Stopped,
            cost: None,
            cpu_seconds: None,
            wall_seconds: None,
        },
        None,
    );
    let csv = range.csv();
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[1].starts_with("\"a,b.txt\",valid,"), "{}", lines[1]);
    assert!(
        lines[2].starts_with("\"say \"\"hi\"\".txt\",valid,"),
        "{}",
        lines[2]
    );
    assert_eq!(
        lines[3],
        format!("none,stopped,,,{}", ",".repeat(range.names().len()))
    );
    let svg = range.svg("two equal levels & one missing");
    well_formed(&svg);
    // Equal levels: the first is every extreme, drawn once.
    assert_eq!(svg.matches(r#"<g class="thumbnail">"#).count(), 1);
    assert_contains(&svg, &["A: a,b.txt"]);
    assert_contains(&svg, &["2 of 3 levels plotted"]);
}
