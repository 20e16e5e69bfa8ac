//! Every `grid.json` error is typed — a field path and a [`FieldProblem`], or a position and a
//! [`JsonProblem`] — and its message reads exactly as it did when the payloads were free text
//! (each expected text below was printed by the string-payload code before the change).

use grim_levels::{
    AdjacencySource, Axis, Dir, Expected, FieldProblem, GridError, GridSpec, JsonProblem,
};

const T2: &str = r#""tiles": [{"name": "wall", "glyph": "%"}, {"name": "floor", "glyph": ".", "classes": ["open"]}]"#;

/// A 2×2 grid of wall and floor (class `open`), plus `rest`.
fn g(rest: &str) -> String {
    format!(r#"{{"width": 2, "height": 2, {T2}{rest}}}"#)
}

fn error(json: &str) -> GridError {
    match GridSpec::from_json(json) {
        Ok(_) => panic!("accepted: {json}"),
        Err(e) => e,
    }
}

fn wrong(value: &str, expected: Expected) -> FieldProblem {
    FieldProblem::WrongValue {
        value: value.to_string(),
        expected,
    }
}

fn s(x: &str) -> String {
    x.to_string()
}

/// The contradiction of `allowed_by` letting `tile` stand on the `dir` side of `of` and
/// `forbidden_by` forbidding it.
fn contradiction(
    tile: &str,
    dir: Dir,
    of: &str,
    allowed_by: AdjacencySource,
    forbidden_by: AdjacencySource,
) -> FieldProblem {
    FieldProblem::Contradiction {
        tile: s(tile),
        dir,
        of: s(of),
        allowed_by,
        forbidden_by,
    }
}

#[test]
fn every_field_problem_names_the_field_and_reads_as_before() {
    let many: Vec<String> = (0..257)
        .map(|i| {
            let glyph = char::from_u32(0x100 + i).unwrap();
            format!(r#"{{"name": "t{i}", "glyph": "{glyph}"}}"#)
        })
        .collect();
    let root_pinned = r#", "mask": ["??", "?%"], "pins": [{"x": 1, "y": 1, "tile": "wall"}], "connectivity": [{"class": "floor", "root": {"x": 1, "y": 1}}]"#;
    use AdjacencySource::*;
    // (grid.json, field, problem, the whole message); one line a case, however long.
    #[rustfmt::skip]
    let cases: Vec<(String, &str, FieldProblem, &str)> = vec![
        ("[1, 2]".into(), "", wrong("[1,2]", Expected::Object), ": [1,2] must be an object"),
        (
            r#"{"width": 2, "height": 2, "tiles": [{"name": "a", "glyph": "a", "colour": "red"}]}"#.into(),
            "tiles[0].colour",
            FieldProblem::UnknownField { known: &["name", "glyph", "weight", "classes", "color"] },
            "tiles[0].colour: unknown field; expected one of name, glyph, weight, classes, color",
        ),
        (r#"{"height": 2, "tiles": []}"#.into(), "width", FieldProblem::Missing, "width: is required"),
        (g(r#", "pins": [{"x": 0, "y": 0}]"#), "pins[0].tile", FieldProblem::Missing, "pins[0].tile: is required"),
        (r#"{"width": 2, "height": 2, "tiles": []}"#.into(), "tiles", FieldProblem::NoTiles, "tiles: must list at least one tile"),
        (
            format!(r#"{{"width": 2, "height": 2, "tiles": [{}]}}"#, many.join(", ")),
            "tiles",
            FieldProblem::TooManyTiles { count: 257 },
            "tiles: 257 tiles; at most 256 are supported",
        ),
        (
            r#"{"width": 2, "height": 2, "tiles": [{"name": "a", "glyph": "?"}]}"#.into(),
            "tiles[0].glyph",
            FieldProblem::ReservedGlyph,
            r#"tiles[0].glyph: "?" is reserved for free cells in the mask"#,
        ),
        (
            r#"{"width": 2, "height": 2, "tiles": [{"name": "a", "glyph": "x"}, {"name": "b", "glyph": "x"}]}"#.into(),
            "tiles[1].glyph",
            FieldProblem::GlyphTaken { glyph: 'x', tile: 0 },
            r#"tiles[1].glyph: "x" is already the glyph of tiles[0]"#,
        ),
        (
            g(r#", "layers": [{"name": "it", "values": [{"name": "a", "glyph": "."}, {"name": "b", "glyph": "."}]}]"#),
            "layers[0].values[1].glyph",
            FieldProblem::ValueGlyphTaken { glyph: '.', layer: 0, value: 0 },
            r#"layers[0].values[1].glyph: "." is already the glyph of layers[0].values[0] (each value of a layer needs its own glyph, so that the layer's rows can be read back)"#,
        ),
        (
            r#"{"width": 2, "height": 2, "tiles": [{"name": "a", "glyph": "a"}, {"name": "a", "glyph": "b"}]}"#.into(),
            "tiles[1].name",
            FieldProblem::NameTaken { value: s(r#""a""#), tile: 0 },
            r#"tiles[1].name: "a" is already the name of tiles[0]"#,
        ),
        (
            r#"{"width": 2, "height": 2, "tiles": [{"name": "a", "glyph": "a", "classes": ["a"]}]}"#.into(),
            "tiles[0].classes[0]",
            FieldProblem::ClassNamedLikeTile { value: s(r#""a""#) },
            r#"tiles[0].classes[0]: "a" is a tile name; a class needs its own name"#,
        ),
        (
            r#"{"width": 2, "height": 2, "tiles": [{"name": "a", "glyph": "a", "classes": ["b"]}, {"name": "b", "glyph": "b"}]}"#.into(),
            "tiles[1].name",
            FieldProblem::TileNamedLikeClass { name: s("b") },
            r#"tiles[1].name: "b" is also a class name"#,
        ),
        (
            g(r#", "layers": [{"name": "open", "values": [{"name": "a", "glyph": "."}]}]"#),
            "layers[0].name",
            FieldProblem::LayerNameTaken { value: s(r#""open""#) },
            r#"layers[0].name: "open" is already a class or layer name"#,
        ),
        (
            g(r#", "layers": [{"name": "it", "values": []}]"#),
            "layers[0].values",
            FieldProblem::ValueCount { count: 0 },
            "layers[0].values: must list from 1 to 256 values",
        ),
        (
            g(r#", "layers": [{"name": "it", "values": [{"name": "a", "glyph": "."}, {"name": "a", "glyph": "*"}]}]"#),
            "layers[0].values[1].name",
            FieldProblem::DuplicateValue { value: s(r#""a""#) },
            r#"layers[0].values[1].name: "a" appears twice in the layer"#,
        ),
        (
            g(r#", "pins": [{"x": 0, "y": 0, "tile": "open"}]"#),
            "pins[0].tile",
            FieldProblem::NotATile { value: s(r#""open""#) },
            r#"pins[0].tile: "open" is not a tile"#,
        ),
        (
            g(r#", "counts": [{"of": "lava", "min": 1}]"#),
            "counts[0].of",
            FieldProblem::NotATileOrClass { value: s(r#""lava""#) },
            r#"counts[0].of: "lava" is neither a tile nor a class"#,
        ),
        (
            g(r#", "counts": [{"of": "items.key", "min": 1}]"#),
            "counts[0].of",
            FieldProblem::NoSuchLayer { value: s(r#""items.key""#), layer: s("items") },
            r#"counts[0].of: "items.key" names no layer "items""#,
        ),
        (
            g(r#", "layers": [{"name": "it", "values": [{"name": "a", "glyph": "."}]}], "counts": [{"of": "it.b", "min": 1}]"#),
            "counts[0].of",
            FieldProblem::NoSuchLayerValue { value: s(r#""it.b""#), layer: s("it"), name: s("b") },
            r#"counts[0].of: "it.b" names no value "b" of layer "it""#,
        ),
        (g(r#", "mask": ["%?"]"#), "mask", FieldProblem::MaskRows { rows: 1, height: 2 }, "mask: has 1 rows; the grid has 2"),
        (
            g(r#", "mask": ["%", "??"]"#),
            "mask[0]",
            FieldProblem::MaskRowLength { value: s(r#""%""#), chars: 1, width: 2 },
            r#"mask[0]: "%" has 1 characters; the grid is 2 wide"#,
        ),
        (
            g(r#", "mask": ["%?", "?x"]"#),
            "mask[1]",
            FieldProblem::MaskGlyph { glyph: 'x', x: 1 },
            r#"mask[1]: "x" at x=1 is neither "?" nor a tile glyph"#,
        ),
        (
            g(r#", "pins": [{"x": 2, "y": 0, "tile": "floor"}]"#),
            "pins[0].x",
            FieldProblem::OutsideGrid { coordinate: 2, axis: Axis::X, size: 2 },
            "pins[0].x: 2 is outside the grid (width 2)",
        ),
        (
            g(r#", "pins": [{"x": 0, "y": 5, "tile": "floor"}]"#),
            "pins[0].y",
            FieldProblem::OutsideGrid { coordinate: 5, axis: Axis::Y, size: 2 },
            "pins[0].y: 5 is outside the grid (height 2)",
        ),
        (
            g(r#", "mask": ["%?", "??"], "pins": [{"x": 0, "y": 0, "tile": "floor"}]"#),
            "pins[0]",
            FieldProblem::NoTileLeft { cell: (0, 0), after: Some(s("mask[0]")) },
            "pins[0]: leaves no tile for cell x=0 y=0 (after mask[0])",
        ),
        (
            g(r#", "allowed": [{"x": 1, "y": 1, "tiles": ["wall"]}], "pins": [{"x": 1, "y": 1, "tile": "floor"}]"#),
            "allowed[0]",
            FieldProblem::NoTileLeft { cell: (1, 1), after: Some(s("pins[0]")) },
            "allowed[0]: leaves no tile for cell x=1 y=1 (after pins[0])",
        ),
        (g(r#", "counts": [{"of": "floor"}]"#), "counts[0]", FieldProblem::NeedsMinOrMax, r#"counts[0]: needs "min", "max" or both"#),
        (
            g(r#", "counts": [{"of": "floor", "min": 0.9, "max": 0.6}]"#),
            "counts[0]",
            FieldProblem::MinAboveMax { min: s("0.9"), max: s("0.6"), cells: Some((4, 4, 2)) },
            r#"counts[0]: "min" 0.9 is above "max" 0.6: of the region's 4 cells, min rounds up to 4 and max down to 2, so no count meets both"#,
        ),
        (
            // Apart, but rounded to whole cells of two they cross: 0.68 of a cell up, 0.72 down.
            g(r#", "counts": [{"of": "wall", "min": 3}, {"of": "floor", "region": {"x": 0, "y": 0, "w": 2, "h": 1}, "min": 0.34, "max": 0.36}]"#),
            "counts[1]",
            FieldProblem::MinAboveMax { min: s("0.34"), max: s("0.36"), cells: Some((2, 1, 0)) },
            r#"counts[1]: "min" 0.34 is above "max" 0.36: of the region's 2 cells, min rounds up to 1 and max down to 0, so no count meets both"#,
        ),
        (
            g(r#", "counts": [{"of": "floor", "per": "wall", "min": 0.5, "max": 0.25}]"#),
            "counts[0]",
            FieldProblem::MinAboveMax { min: s("0.5"), max: s("0.25"), cells: None },
            r#"counts[0]: "min" 0.5 is above "max" 0.25: no count meets both"#,
        ),
        (
            g(r#", "counts": [{"of": "floor", "min": 3, "max": 2, "weight": 4}]"#),
            "counts[0]",
            FieldProblem::MinAboveMax { min: s("3"), max: s("2"), cells: Some((4, 3, 2)) },
            r#"counts[0]: "min" 3 is above "max" 2: of the region's 4 cells, min rounds up to 3 and max down to 2, so no count meets both"#,
        ),
        (
            g(r#", "enclosure": [{"class": "floor", "open": "open", "max": 0.5}]"#),
            "enclosure[0].max",
            FieldProblem::EnclosureCeiling,
            "enclosure[0].max: an enclosure takes only a floor (\"min\"): reachability from the border is encoded by Horn clauses whose solutions may over-approximate what is reachable, which is sound for \"at least this much is sealed\" but would let a ceiling be met by calling sealed cells reachable; bound the class with a count instead",
        ),
        (
            g(root_pinned),
            "connectivity[0].root",
            FieldProblem::RootCannotHoldClass { cell: (1, 1), by: vec![s("mask[1]"), s("pins[0]")], left: vec![s("wall")] },
            "connectivity[0].root: cell x=1 y=1 cannot hold the class: mask[1] and pins[0] leave it only wall",
        ),
        (
            g(r#", "mask": ["??", "?%"], "connectivity": [{"class": "floor", "root": {"x": 1, "y": 1}}]"#),
            "connectivity[0].root",
            FieldProblem::RootCannotHoldClass { cell: (1, 1), by: vec![s("mask[1]")], left: vec![s("wall")] },
            "connectivity[0].root: cell x=1 y=1 cannot hold the class: mask[1] leaves it only wall",
        ),
        (
            r##"{"width": 256, "height": 256, "tiles": [{"name": "wall", "glyph": "#"}], "paths": [{"from": "wall", "to": "wall", "through": "wall", "max_length": 100}]}"##.into(),
            "paths[0].max_length",
            FieldProblem::PathTooLong { steps: 100, cells: 65536 },
            "paths[0].max_length: 100 steps on 65536 cells needs 100 layers of 65536 variables; at most 4194304 layer-cells are supported — shorten it or drop it (an unbounded path costs no layers)",
        ),
        (
            g(r#", "adjacency": {"directional": [{"tile": "wall", "dir": "N"}]}"#),
            "adjacency.directional[0]",
            FieldProblem::NeedsAllowOrForbid,
            r#"adjacency.directional[0]: needs exactly one of "allow" and "forbid""#,
        ),
        (g(r#", "adjacency": {"forbid": [["wall", "floor"]], "directional": [{"tile": "wall", "dir": "N", "allow": ["floor"]}]}"#), "adjacency", contradiction("floor", Dir::N, "wall", Directional(0), Forbid(0)), r#"adjacency: contradiction for "floor" on the north side of "wall": adjacency.directional[0] allows it, adjacency.forbid[0] forbids it"#),
        (g(r#", "adjacency": {"directional": [{"tile": "wall", "dir": "E", "allow": ["floor"]}, {"tile": "floor", "dir": "W", "allow": ["floor"]}]}"#), "adjacency", contradiction("floor", Dir::E, "wall", Directional(0), NotInDirectionalAllow(1)), r#"adjacency: contradiction for "floor" on the east side of "wall": adjacency.directional[0] allows it, adjacency.directional[1] (not in its allow list) forbids it"#),
        (g(r#", "adjacency": {"allow": [["wall", "wall"]], "directional": [{"tile": "wall", "dir": "N", "allow": ["floor"]}]}"#), "adjacency", contradiction("wall", Dir::N, "wall", Allow(0), NotInDirectionalAllow(0)), r#"adjacency: contradiction for "wall" on the north side of "wall": adjacency.allow[0] allows it, adjacency.directional[0] (not in its allow list) forbids it"#),
        (g(r#", "adjacency": {"allow": [["wall", "wall"]], "directional": [{"tile": "floor", "dir": "N", "allow": ["floor"]}]}"#), "adjacency", contradiction("floor", Dir::N, "floor", Directional(0), NotInAllow), r#"adjacency: contradiction for "floor" on the north side of "floor": adjacency.directional[0] allows it, adjacency.allow (not listed) forbids it"#),
        (r#"{"width": 2, "height": 2, "tiles": 3}"#.into(), "tiles", wrong("3", Expected::Array), "tiles: 3 must be an array"),
        (
            r#"{"width": 2, "height": 2, "tiles": [{"name": 3, "glyph": "a"}]}"#.into(),
            "tiles[0].name",
            wrong("3", Expected::String),
            "tiles[0].name: 3 must be a string",
        ),
        (g(r#", "counts": [{"of": "floor", "min": "x"}]"#), "counts[0].min", wrong(r#""x""#, Expected::Number), r#"counts[0].min: "x" must be a number"#),
        (
            r###"{"width": 2, "height": 2, "tiles": [{"name": "d", "glyph": "##"}]}"###.into(),
            "tiles[0].glyph",
            wrong(r###""##""###, Expected::Character),
            r###"tiles[0].glyph: "##" must be one character"###,
        ),
        (
            r#"{"width": 2, "height": 2, "tiles": [{"name": "a.b", "glyph": "a"}]}"#.into(),
            "tiles[0].name",
            wrong(r#""a.b""#, Expected::Name),
            r#"tiles[0].name: "a.b" must be a non-empty name without '.'"#,
        ),
        (
            g(r#", "counts": [{"of": "floor", "region": {"x": -1, "y": 0, "w": 1, "h": 1}, "min": 1}]"#),
            "counts[0].region.x",
            wrong("-1", Expected::WholeNumber),
            "counts[0].region.x: -1 must be a whole number",
        ),
        (g(r#", "pins": [{"x": "a", "y": 0, "tile": "floor"}]"#), "pins[0].x", wrong(r#""a""#, Expected::Column), r#"pins[0].x: "a" must be a column"#),
        (g(r#", "pins": [{"x": 0, "y": -1, "tile": "floor"}]"#), "pins[0].y", wrong("-1", Expected::Row), "pins[0].y: -1 must be a row"),
        (
            g(r#", "paths": [{"from": "floor", "to": "floor", "through": "floor", "max_length": -1}]"#),
            "paths[0].max_length",
            wrong("-1", Expected::Steps),
            "paths[0].max_length: -1 must be a whole number of steps",
        ),
        (
            r#"{"width": 2, "height": 2, "tiles": [{"name": "a", "glyph": "a", "weight": -1}]}"#.into(),
            "tiles[0].weight",
            wrong("-1", Expected::AtLeast(0)),
            "tiles[0].weight: -1 must be a whole number ≥ 0",
        ),
        (
            g(r#", "counts": [{"of": "floor", "min": 1, "weight": 0}]"#),
            "counts[0].weight",
            wrong("0", Expected::AtLeast(1)),
            "counts[0].weight: 0 must be a whole number ≥ 1",
        ),
        (
            r#"{"width": 2, "height": 1e9}"#.into(),
            "height",
            wrong("1000000000.0", Expected::Range { min: 1, max: 256 }),
            "height: 1000000000.0 must be a whole number from 1 to 256",
        ),
        (
            g(r#", "preferences": {"seed": -1}"#),
            "preferences.seed",
            wrong("-1", Expected::Range { min: 0, max: u64::MAX }),
            "preferences.seed: -1 must be a whole number from 0 to 2^64 - 1",
        ),
        (
            g(r#", "counts": [{"of": "floor", "per": "wall", "max": 2}]"#),
            "counts[0].max",
            wrong("2", Expected::RatioWithPer),
            "counts[0].max: 2 must be a ratio between 0 and 1 here",
        ),
        (
            g(r#", "counts": [{"of": "floor", "min": 1.5}]"#),
            "counts[0].min",
            wrong("1.5", Expected::CountOrRatio),
            "counts[0].min: 1.5 must be a whole number of cells or a ratio between 0 and 1",
        ),
        (
            g(r#", "counts": [{"of": "floor", "region": {"x": 1, "y": 0, "w": 2, "h": 1}, "min": 1}]"#),
            "counts[0].region",
            wrong(r#"{"h":1,"w":2,"x":1,"y":0}"#, Expected::Rectangle { width: 2, height: 2 }),
            r#"counts[0].region: {"h":1,"w":2,"x":1,"y":0} must be a non-empty rectangle inside the 2x2 grid"#,
        ),
        (
            g(r#", "connectivity": [{"class": "floor", "root": "first"}]"#),
            "connectivity[0].root",
            wrong(r#""first""#, Expected::Root),
            r#"connectivity[0].root: "first" must be "any" or a cell {"x": .., "y": ..}"#,
        ),
        (
            g(r#", "paths": [{"from": 3, "to": "floor", "through": "floor"}]"#),
            "paths[0].from",
            wrong("3", Expected::Endpoint),
            r#"paths[0].from: 3 must be a cell {"x": .., "y": ..} or a name"#,
        ),
        (
            g(r#", "preferences": {"mode": "random"}"#),
            "preferences.mode",
            wrong(r#""random""#, Expected::Mode),
            r#"preferences.mode: "random" must be "hint" or "soft""#,
        ),
        (
            g(r#", "adjacency": {"directional": [{"tile": "wall", "dir": "up", "allow": ["floor"]}]}"#),
            "adjacency.directional[0].dir",
            wrong(r#""up""#, Expected::Dir),
            r#"adjacency.directional[0].dir: "up" must be one of "N", "E", "S", "W""#,
        ),
        (
            g(r#", "adjacency": {"forbid": [["wall"]]}"#),
            "adjacency.forbid[0]",
            wrong(r#"["wall"]"#, Expected::Pair),
            r#"adjacency.forbid[0]: ["wall"] must be a pair ["a", "b"]"#,
        ),
        (g(r#", "pins": [3]"#), "pins[0]", wrong("3", Expected::Object), "pins[0]: 3 must be an object"),
    ];
    for (json, field, problem, text) in &cases {
        let e = error(json);
        assert_eq!(
            e,
            GridError::Invalid {
                field: field.to_string(),
                problem: problem.clone(),
            },
            "for {json}"
        );
        assert_eq!(e.to_string(), *text, "for {json}");
    }
}

/// Every problem of [`JsonProblem::KNOWN`] is one serde_json really reports, in these words:
/// a serde_json that rewords one fails here instead of degrading it to `Unclassified`.
#[test]
fn every_json_syntax_error_is_classified_and_reads_as_serde_json_says_it() {
    use JsonProblem as P;
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    // (text, line, column, problem, message)
    #[rustfmt::skip]
    let cases: Vec<(&str, usize, usize, JsonProblem, &str)> = vec![
        ("[1", 1, 2, P::EofInList, "EOF while parsing a list"),
        (r#"{"a": 1"#, 1, 7, P::EofInObject, "EOF while parsing an object"),
        (r#""abc"#, 1, 4, P::EofInString, "EOF while parsing a string"),
        ("", 1, 1, P::EofInValue, "EOF while parsing a value"),
        (r#"{"a" 1}"#, 1, 6, P::ExpectedColon, "expected `:`"),
        ("[1 2]", 1, 4, P::ExpectedListCommaOrEnd, "expected `,` or `]`"),
        (r#"{"a": 1 "b": 2}"#, 1, 9, P::ExpectedObjectCommaOrEnd, "expected `,` or `}`"),
        ("trux", 1, 4, P::ExpectedIdent, "expected ident"),
        ("{\"width\": 3,\n  \"height\": }", 2, 13, P::ExpectedValue, "expected value"),
        (r#""\q""#, 1, 3, P::InvalidEscape, "invalid escape"),
        ("[-]", 1, 3, P::InvalidNumber, "invalid number"),
        ("1e400", 1, 5, P::NumberOutOfRange, "number out of range"),
        (
            "\"a\u{1}b\"",
            1,
            3,
            P::ControlCharacterInString,
            r"control character (\u0000-\u001F) found while parsing a string",
        ),
        ("{1: 2}", 1, 2, P::KeyMustBeAString, "key must be a string"),
        (r#""\uDC00""#, 1, 7, P::LoneLeadingSurrogate, "lone leading surrogate in hex escape"),
        ("[1,]", 1, 4, P::TrailingComma, "trailing comma"),
        ("{} x", 1, 4, P::TrailingCharacters, "trailing characters"),
        (r#""\uD800x""#, 1, 8, P::UnexpectedEndOfHexEscape, "unexpected end of hex escape"),
        (&deep, 1, 128, P::RecursionLimitExceeded, "recursion limit exceeded"),
    ];
    for (text, line, column, problem, message) in &cases {
        let e = error(text);
        assert_eq!(
            e,
            GridError::Syntax {
                line: *line,
                column: *column,
                problem: problem.clone(),
            },
            "for {text:?}"
        );
        assert_eq!(
            e.to_string(),
            format!("line {line}, column {column}: {message}"),
            "for {text:?}"
        );
    }
    for known in JsonProblem::KNOWN {
        assert!(
            cases.iter().any(|(_, _, _, p, _)| *p == known),
            "{known:?} is listed as known but no case provokes it"
        );
    }
}
