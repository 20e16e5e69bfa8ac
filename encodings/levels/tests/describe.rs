//! `grim_levels::describe`: every measure on hand-made levels against values counted by hand
//! (written out beside each picture), and on random small levels against brute-force
//! definitions — bridges by removing each edge, articulation cells by removing each cell,
//! blocks by the "no single cell separates them" relation between edges, cores by checking
//! each square directly, runs, dead ends, density and symmetry by direct scans over 2-D
//! coordinates.

// The brute force walks cells by index beside parallel per-cell arrays, as the rules do.
#![allow(clippy::needless_range_loop)]

use grim_levels::describe::{Description, SetDescription, SetKind, blocks};
use grim_levels::{GridSpec, Level, SplitMix64, describe};
use std::collections::BTreeMap;

/// Three tiles: wall `#`, floor `.` (class `walkable`), water `~` (classes `walkable`, `wet`);
/// a layer `items` (none ` `, key `k`).
fn spec(width: usize, height: usize) -> GridSpec {
    GridSpec::from_json(&format!(
        r##"{{"width": {width}, "height": {height},
        "tiles": [{{"name": "wall", "glyph": "#"}},
                  {{"name": "floor", "glyph": ".", "classes": ["walkable"]}},
                  {{"name": "water", "glyph": "~", "classes": ["walkable", "wet"]}}],
        "layers": [{{"name": "items", "values": [{{"name": "none", "glyph": " "}},
                                                {{"name": "key", "glyph": "k"}}]}}]}}"##
    ))
    .expect("valid spec")
}

/// The level drawn by `rows` (tiles `#`, `.`, `~`; a `k` is floor with a key on it).
fn level(rows: &[&str]) -> (GridSpec, Level) {
    let (w, h) = (rows[0].chars().count(), rows.len());
    let spec = spec(w, h);
    let mut tiles = Vec::new();
    let mut items = Vec::new();
    for row in rows {
        assert_eq!(row.chars().count(), w, "ragged picture");
        for c in row.chars() {
            tiles.push(match c {
                '#' => 0,
                '.' | 'k' => 1,
                '~' => 2,
                other => panic!("unknown glyph {other:?}"),
            });
            items.push(usize::from(c == 'k'));
        }
    }
    let level = Level {
        width: w,
        height: h,
        tiles,
        layers: vec![items],
    };
    (spec, level)
}

fn set<'a>(d: &'a Description, name: &str) -> &'a SetDescription {
    d.sets
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no set {name}"))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn sets_are_the_tiles_in_file_order_then_the_classes_in_order_of_first_mention() {
    let (spec, level) = level(&["#.~"]);
    let d = describe(&spec, &level);
    let names: Vec<(&str, SetKind, Vec<&str>)> = d
        .sets
        .iter()
        .map(|s| {
            (
                s.name.as_str(),
                s.kind,
                s.tiles.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    assert_eq!(
        names,
        vec![
            ("wall", SetKind::Tile, vec!["wall"]),
            ("floor", SetKind::Tile, vec!["floor"]),
            ("water", SetKind::Tile, vec!["water"]),
            ("walkable", SetKind::Class, vec!["floor", "water"]),
            ("wet", SetKind::Class, vec!["water"]),
        ]
    );
}

/// A theta-shaped floor (two rings sharing the column x = 2) with a tail of three bridges.
const THETA: [&str; 5] = [
    ".....#", //
    ".#.#.#", //
    ".....#", //
    "##.###", //
    "##..##", //
];

#[test]
fn a_theta_with_a_tail_has_cycle_rank_two_one_big_block_and_three_bridges() {
    let (spec, level) = level(&THETA);
    let d = describe(&spec, &level);
    let floor = set(&d, "floor");
    // Floor: 5 + 3 + 5 + 1 + 2 = 16 cells of 30.
    assert_eq!(floor.cells, 16);
    assert!(close(floor.open_fraction, 16.0 / 30.0));
    // Edges: across 4 + 0 + 4 + 0 + 1, down 3 + 3 + 1 + 1.
    assert_eq!(floor.edges, 17);
    assert_eq!(floor.components, vec![16]);
    // 17 − 16 + 1: the two holes.
    assert_eq!(floor.cycle_rank, 2);
    // The theta (13 cells) is one block; (2,2)-(2,3), (2,3)-(2,4), (2,4)-(3,4) are bridges.
    assert_eq!(floor.blocks, vec![13, 2, 2, 2]);
    assert_eq!(floor.bridges, 3);
    // (2,2), (2,3), (2,4).
    assert_eq!(floor.articulation_cells, 3);
    // (3,4) is the only floor cell with one floor neighbour.
    assert_eq!(floor.dead_ends, 1);
    assert_eq!(floor.isolated_cells, 0);
    // Rows: 5 | 1 1 1 | 5 | 1 | 2. Columns: 3 | 1 1 | 5 | 1 1 1 | 3 | -.
    assert_eq!(
        floor.horizontal_runs.histogram,
        BTreeMap::from([(1, 4), (2, 1), (5, 2)])
    );
    assert_eq!(floor.horizontal_runs.count, 7);
    assert!(close(floor.horizontal_runs.mean.unwrap(), 16.0 / 7.0));
    assert_eq!(floor.horizontal_runs.max, 5);
    assert_eq!(
        floor.vertical_runs.histogram,
        BTreeMap::from([(1, 5), (3, 2), (5, 1)])
    );
    assert_eq!(floor.vertical_runs.count, 8);
    assert!(close(floor.vertical_runs.mean.unwrap(), 2.0));

    // Wall: column 5 with (3,3), (4,3), (4,4) (8 cells, one square), the 2×2 in the corner,
    // and the isolated (1,1), (3,1).
    let wall = set(&d, "wall");
    assert_eq!(wall.cells, 14);
    assert_eq!(wall.components, vec![8, 4, 1, 1]);
    assert_eq!(wall.edges, 12);
    assert_eq!(wall.cycle_rank, 2);
    // Bridges (5,0)-(5,1), (5,1)-(5,2), (5,2)-(5,3), (3,3)-(4,3); articulation cells (5,1),
    // (5,2), (5,3), (4,3); blocks: two squares, four bridges, two isolated cells.
    assert_eq!(wall.bridges, 4);
    assert_eq!(wall.articulation_cells, 4);
    assert_eq!(wall.blocks, vec![4, 4, 2, 2, 2, 2, 1, 1]);
    // (5,0) and (3,3).
    assert_eq!(wall.dead_ends, 2);
    assert_eq!(wall.isolated_cells, 2);

    // Nothing is water: empty measures are zeros and `None`s, never a panic.
    let water = set(&d, "water");
    assert_eq!(water.cells, 0);
    assert_eq!(water.components, Vec::<usize>::new());
    assert_eq!(water.local_density, None);
    assert_eq!(water.horizontal_runs.mean, None);
    assert_eq!(water.cycle_rank, 0);
}

#[test]
fn the_dfs_names_the_bridges_and_articulation_cells_of_the_theta() {
    let (_, level) = level(&THETA);
    let member: Vec<bool> = level.tiles.iter().map(|&t| t == 1).collect();
    let b = blocks(6, 5, &member);
    let mut bridges = b.bridges.clone();
    bridges.sort_unstable();
    let c = |x: usize, y: usize| y * 6 + x;
    assert_eq!(
        bridges,
        vec![(c(2, 2), c(2, 3)), (c(2, 3), c(2, 4)), (c(2, 4), c(3, 4))]
    );
    assert_eq!(b.articulation, vec![c(2, 2), c(2, 3), c(2, 4)]);
}

#[test]
fn chamber_cores_are_the_centres_of_open_squares_inside_the_grid() {
    // Room A: x 1..=7, y 1..=7 (7×7); room B: x 9..=13, y 2..=6 (5×5); a wall column between.
    let mut rows = Vec::new();
    for y in 0..9 {
        let row: String = (0..15)
            .map(|x| {
                let a = (1..=7).contains(&x) && (1..=7).contains(&y);
                let b = (9..=13).contains(&x) && (2..=6).contains(&y);
                if a || b { '.' } else { '#' }
            })
            .collect();
        rows.push(row);
    }
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let (spec, level) = level(&rows);
    let d = describe(&spec, &level);
    let cores: Vec<(usize, usize, Vec<usize>)> = set(&d, "floor")
        .cores
        .iter()
        .map(|c| (c.radius, c.cells, c.regions.clone()))
        .collect();
    // r = 2: centres x 3..=5, y 3..=5 of A (9) and (11, 4) of B. r = 3: (4, 4) of A only.
    // r = 4 needs a 9×9 open square: none.
    assert_eq!(
        cores,
        vec![(2, 10, vec![9, 1]), (3, 1, vec![1]), (4, 0, vec![])]
    );
}

#[test]
fn the_grid_edge_is_not_clearance() {
    // An all-floor 5×5 grid: only the centre is 2 away from every edge.
    let (spec, level) = level(&[".....", ".....", ".....", ".....", "....."]);
    let d = describe(&spec, &level);
    let floor = set(&d, "floor");
    assert_eq!((floor.cores[0].cells, floor.cores[1].cells), (1, 0));
    // 25 cells, 40 edges, one component: 16 independent cycles.
    assert_eq!((floor.edges, floor.cycle_rank), (40, 16));
    assert_eq!((floor.bridges, floor.articulation_cells), (0, 0));
    assert_eq!(floor.blocks, vec![25]);
}

#[test]
fn local_density_averages_each_cells_share_of_open_8_neighbours_inside_the_grid() {
    let (spec, level) = level(&["..#", "..#", "###"]);
    let d = describe(&spec, &level);
    // (0,0): 3 of 3; (1,0): 3 of 5; (0,1): 3 of 5; (1,1): 3 of 8.
    let want = (1.0 + 0.6 + 0.6 + 0.375) / 4.0;
    let got = set(&d, "floor").local_density.unwrap();
    assert!(close(got, want), "{got} != {want}");
    // Walls: (2,0) 1 of 3 ((2,1)); (2,1) 3 of 5 ((2,0), (1,2), (2,2)); (0,2) 1 of 3;
    // (1,2) 3 of 5; (2,2) 2 of 3.
    let want = (1.0 / 3.0 + 0.6 + 1.0 / 3.0 + 0.6 + 2.0 / 3.0) / 5.0;
    let got = set(&d, "wall").local_density.unwrap();
    assert!(close(got, want), "{got} != {want}");
}

#[test]
fn mirror_agreement_counts_every_cell_against_its_image() {
    let (spec, square) = level(&["#.#", "...", "#.~"]);
    let s = describe(&spec, &square).symmetry;
    // Only the corner pair (0,2)/(2,2) or (0,0)/(2,2) disagrees for each symmetry but the main
    // diagonal, which maps (0,2) onto (2,0) (both walls) and fixes (2,2).
    for (name, value) in [
        ("vertical", s.vertical),
        ("horizontal", s.horizontal),
        ("rotation_180", s.rotation_180),
        ("rotation_90", s.rotation_90),
        ("antidiagonal", s.antidiagonal),
    ] {
        assert_eq!(value, Some(7.0 / 9.0), "{name}");
    }
    assert_eq!(s.diagonal, Some(1.0));
    // Membership of `wet` (the water cell alone): each image of (2,2) but the diagonal's and
    // (2,2) itself disagree.
    let wet = set(&describe(&spec, &square), "wet").symmetry;
    assert_eq!(wet.vertical, Some(7.0 / 9.0));
    assert_eq!(wet.diagonal, Some(1.0));

    // A 4×2 grid has no quarter turn or diagonal.
    let (spec, wide) = level(&["#..#", "~..."]);
    let s = describe(&spec, &wide).symmetry;
    // Row 0 is a palindrome; row 1 pairs ~/. and ./.: 6 of 8 agree.
    assert_eq!(s.vertical, Some(6.0 / 8.0));
    assert_eq!(
        (s.rotation_90, s.diagonal, s.antidiagonal),
        (None, None, None)
    );
}

#[test]
fn layers_count_each_value() {
    let (spec, level) = level(&["k..", "#k#"]);
    let d = describe(&spec, &level);
    let counts: Vec<(&str, usize)> = d.layers[0]
        .values
        .iter()
        .map(|v| (v.name.as_str(), v.count))
        .collect();
    assert_eq!(counts, vec![("none", 4), ("key", 2)]);
    let scalars = d.scalars();
    let key = scalars
        .iter()
        .find(|s| s.name == "items.key.count")
        .expect("the layer scalar");
    assert_eq!(key.value, Some(2.0));
}

#[test]
fn scalar_names_follow_the_spec_not_the_level() {
    let (spec, a) = level(&["#.~", "..."]);
    let (_, b) = level(&["###", "###"]);
    let names = |l: &Level| -> Vec<String> {
        describe(&spec, l)
            .scalars()
            .into_iter()
            .map(|s| s.name)
            .collect()
    };
    assert_eq!(names(&a), names(&b));
    assert_eq!(names(&a), grim_levels::describe::scalar_names(&spec));
    assert!(names(&a).contains(&"walkable.core2_regions".to_string()));
    assert!(names(&a).contains(&"symmetry_rotation_90".to_string()));
}

#[test]
fn a_level_that_does_not_fit_the_spec_is_measured_not_refused() {
    let (spec, mut level) = level(&["#.", ".#"]);
    level.tiles = vec![7, 1]; // an unknown tile and two missing cells
    level.layers.clear();
    let d = describe(&spec, &level);
    assert_eq!(set(&d, "floor").cells, 1);
    assert_eq!(set(&d, "wall").cells, 0);
    assert_eq!(d.layers[0].values[0].count, 0);
}

#[test]
fn the_json_and_the_table_are_the_same_bytes_every_time() {
    let (spec, level) = level(&THETA);
    let a = describe(&spec, &level);
    let b = describe(&spec, &level);
    assert_eq!(a.to_json(), b.to_json());
    assert_eq!(a.to_text(), b.to_text());
    let json: serde_json::Value = serde_json::from_str(&a.to_json()).expect("valid JSON");
    assert_eq!(json["sets"][1]["name"], "floor");
    assert_eq!(json["sets"][1]["cycle_rank"], 2);
    assert_eq!(json["sets"][1]["horizontal_runs"]["histogram"]["5"], 2);
    let text = a.to_text();
    assert!(text.contains("cycle rank"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("bridges") && l.contains(" 3 ")),
        "{text}"
    );
}

// ---------------------------------------------------------------------------------------
// Random levels against brute force.

/// Components of the cells with `member`, skipping the cell `without` and the edge
/// `cut` (either order): a component label per cell (`usize::MAX` outside), and the count.
fn brute_components(
    w: usize,
    h: usize,
    member: &[bool],
    without: Option<usize>,
    cut: Option<(usize, usize)>,
) -> (Vec<usize>, usize) {
    let mut label = vec![usize::MAX; w * h];
    let mut count = 0;
    let inside = |c: usize| member[c] && Some(c) != without;
    for start in 0..w * h {
        if !inside(start) || label[start] != usize::MAX {
            continue;
        }
        label[start] = count;
        let mut queue = vec![start];
        while let Some(c) = queue.pop() {
            let (x, y) = ((c % w) as i64, (c / w) as i64);
            for (dx, dy) in [(0, -1), (1, 0), (0, 1), (-1, 0)] {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= w as i64 || ny >= h as i64 {
                    continue;
                }
                let v = ny as usize * w + nx as usize;
                if !inside(v) || label[v] != usize::MAX {
                    continue;
                }
                if cut == Some((c, v)) || cut == Some((v, c)) {
                    continue;
                }
                label[v] = count;
                queue.push(v);
            }
        }
        count += 1;
    }
    (label, count)
}

fn brute_edges(w: usize, h: usize, member: &[bool]) -> Vec<(usize, usize)> {
    let mut edges = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let c = y * w + x;
            if !member[c] {
                continue;
            }
            if x + 1 < w && member[c + 1] {
                edges.push((c, c + 1));
            }
            if y + 1 < h && member[c + w] {
                edges.push((c, c + w));
            }
        }
    }
    edges
}

/// Blocks by definition: two edges share a block iff they are connected and no single cell's
/// removal separates what is left of them (a cut vertex between them would); isolated cells
/// are blocks of one. Each block as its sorted cells; the list sorted.
fn brute_blocks(w: usize, h: usize, member: &[bool]) -> Vec<Vec<usize>> {
    let edges = brute_edges(w, h, member);
    let (base, _) = brute_components(w, h, member, None, None);
    let n = edges.len();
    // together[i][j]: edges i and j are not separated by any single cell.
    let mut together = vec![vec![true; n]; n];
    for i in 0..n {
        for j in 0..n {
            if base[edges[i].0] != base[edges[j].0] {
                together[i][j] = false;
            }
        }
    }
    for cell in 0..w * h {
        if !member[cell] {
            continue;
        }
        let (label, _) = brute_components(w, h, member, Some(cell), None);
        let rest = |e: (usize, usize)| if e.0 == cell { e.1 } else { e.0 };
        for i in 0..n {
            for j in 0..n {
                if label[rest(edges[i])] != label[rest(edges[j])] {
                    together[i][j] = false;
                }
            }
        }
    }
    let mut taken = vec![false; n];
    let mut out = Vec::new();
    for i in 0..n {
        if taken[i] {
            continue;
        }
        let mut cells = Vec::new();
        for j in 0..n {
            if together[i][j] {
                assert!(
                    !taken[j],
                    "the relation is not an equivalence at edges {i}, {j}"
                );
                taken[j] = true;
                cells.extend([edges[j].0, edges[j].1]);
            }
        }
        cells.sort_unstable();
        cells.dedup();
        out.push(cells);
    }
    for c in 0..w * h {
        if member[c] && !edges.iter().any(|e| e.0 == c || e.1 == c) {
            out.push(vec![c]);
        }
    }
    out.sort();
    out
}

/// A random `w × h` level over `tiles` tiles: noise, or rectangles painted over a background
/// (rooms and corridors, so cores, bridges and loops all occur).
fn random_level(rng: &mut SplitMix64, w: usize, h: usize, tiles: usize) -> Level {
    let mut cells = vec![0usize; w * h];
    if rng.coin() {
        let bias = rng.next_u64() % 4;
        for c in &mut cells {
            let r = (rng.next_u64() % (tiles as u64 + bias)) as usize;
            *c = r.min(tiles - 1);
        }
    } else {
        for _ in 0..(1 + rng.next_u64() % 6) {
            let t = (rng.next_u64() % tiles as u64) as usize;
            let (x0, y0) = (
                (rng.next_u64() % w as u64) as usize,
                (rng.next_u64() % h as u64) as usize,
            );
            let (rw, rh) = (
                1 + (rng.next_u64() % w as u64) as usize,
                1 + (rng.next_u64() % h as u64) as usize,
            );
            for y in y0..(y0 + rh).min(h) {
                for x in x0..(x0 + rw).min(w) {
                    cells[y * w + x] = t;
                }
            }
        }
    }
    Level {
        width: w,
        height: h,
        tiles: cells,
        layers: vec![vec![0; w * h]],
    }
}

fn tiles_spec(w: usize, h: usize, tiles: usize) -> GridSpec {
    let names = ["a", "b", "c"];
    let list: Vec<String> = (0..tiles)
        .map(|t| {
            format!(
                r#"{{"name": "{}", "glyph": "{}", "classes": ["{}"]}}"#,
                names[t],
                names[t],
                if t == 0 { "solid" } else { "open" }
            )
        })
        .collect();
    GridSpec::from_json(&format!(
        r#"{{"width": {w}, "height": {h}, "tiles": [{}],
           "layers": [{{"name": "items", "values": [{{"name": "none", "glyph": " "}}]}}]}}"#,
        list.join(",")
    ))
    .expect("valid spec")
}

/// Checks one set of one level against brute force; returns what it exercised: (a bridge, an
/// articulation cell, a block with a cycle, a core at radius 2).
fn check_set(level: &Level, s: &SetDescription, member: &[bool]) -> [bool; 4] {
    let (w, h) = (level.width, level.height);
    let what = format!("set {} of\n{:?}", s.name, level.tiles);
    let cells = member.iter().filter(|&&m| m).count();
    assert_eq!(s.cells, cells, "{what}");

    // Components, edges, cycle rank.
    let (label, count) = brute_components(w, h, member, None, None);
    let mut sizes: Vec<usize> = (0..count)
        .map(|k| label.iter().filter(|&&l| l == k).count())
        .collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(s.components, sizes, "{what}");
    let edges = brute_edges(w, h, member);
    assert_eq!(s.edges, edges.len(), "{what}");
    assert_eq!(s.cycle_rank, edges.len() + count - cells, "{what}");

    // Bridges: edges whose removal adds a component; articulation cells: cells whose removal
    // does.
    let mut bridges: Vec<(usize, usize)> = edges
        .iter()
        .copied()
        .filter(|&e| brute_components(w, h, member, None, Some(e)).1 > count)
        .collect();
    let articulation: Vec<usize> = (0..w * h)
        .filter(|&c| member[c] && brute_components(w, h, member, Some(c), None).1 > count)
        .collect();
    let b = blocks(w, h, member);
    let mut dfs_bridges = b.bridges.clone();
    dfs_bridges.sort_unstable();
    bridges.sort_unstable();
    assert_eq!(dfs_bridges, bridges, "{what}");
    assert_eq!(b.articulation, articulation, "{what}");
    assert_eq!(s.bridges, bridges.len(), "{what}");
    assert_eq!(s.articulation_cells, articulation.len(), "{what}");

    // Blocks.
    let want = brute_blocks(w, h, member);
    let mut got: Vec<Vec<usize>> = b
        .blocks
        .iter()
        .map(|cells| {
            let mut cells = cells.clone();
            cells.sort_unstable();
            cells
        })
        .collect();
    got.sort();
    assert_eq!(got, want, "{what}");
    let mut block_sizes: Vec<usize> = want.iter().map(Vec::len).collect();
    block_sizes.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(s.blocks, block_sizes, "{what}");

    // Dead ends and isolated cells.
    let degree = |c: usize| edges.iter().filter(|e| e.0 == c || e.1 == c).count();
    let dead = (0..w * h).filter(|&c| member[c] && degree(c) == 1).count();
    let isolated = (0..w * h).filter(|&c| member[c] && degree(c) == 0).count();
    assert_eq!((s.dead_ends, s.isolated_cells), (dead, isolated), "{what}");

    // Runs: from each cell that starts one, walk on.
    let at = |x: i64, y: i64| {
        x >= 0 && y >= 0 && x < w as i64 && y < h as i64 && member[y as usize * w + x as usize]
    };
    for (vertical, runs) in [(false, &s.horizontal_runs), (true, &s.vertical_runs)] {
        let (dx, dy) = if vertical { (0, 1) } else { (1, 0) };
        let mut histogram = BTreeMap::new();
        for y in 0..h as i64 {
            for x in 0..w as i64 {
                if at(x, y) && !at(x - dx, y - dy) {
                    let mut len = 0;
                    while at(x + dx * len, y + dy * len) {
                        len += 1;
                    }
                    *histogram.entry(len as usize).or_insert(0) += 1;
                }
            }
        }
        assert_eq!(runs.histogram, histogram, "{what} vertical={vertical}");
        assert_eq!(runs.count, histogram.values().sum::<usize>(), "{what}");
        assert_eq!(
            runs.max,
            histogram.keys().max().copied().unwrap_or(0),
            "{what}"
        );
    }

    // Local density: each cell's 8-neighbours inside the grid.
    let mut shares = Vec::new();
    for y in 0..h as i64 {
        for x in 0..w as i64 {
            if !at(x, y) {
                continue;
            }
            let mut inside = 0;
            let mut open = 0;
            for (dx, dy) in [
                (-1, -1),
                (0, -1),
                (1, -1),
                (-1, 0),
                (1, 0),
                (-1, 1),
                (0, 1),
                (1, 1),
            ] {
                let (nx, ny) = (x + dx, y + dy);
                if nx >= 0 && ny >= 0 && nx < w as i64 && ny < h as i64 {
                    inside += 1;
                    open += i32::from(at(nx, ny));
                }
            }
            shares.push(f64::from(open) / f64::from(inside));
        }
    }
    let density = (!shares.is_empty()).then(|| shares.iter().sum::<f64>() / shares.len() as f64);
    match (s.local_density, density) {
        (Some(a), Some(b)) => assert!((a - b).abs() < 1e-9, "{what}: {a} != {b}"),
        (a, b) => assert_eq!(a, b, "{what}"),
    }

    // Cores: every square checked cell by cell; regions by the component search above.
    let mut core2 = false;
    for core in &s.cores {
        let r = core.radius as i64;
        let is_core: Vec<bool> = (0..w * h)
            .map(|c| {
                let (x, y) = ((c % w) as i64, (c / w) as i64);
                (-r..=r).all(|dy| (-r..=r).all(|dx| at(x + dx, y + dy)))
            })
            .collect();
        let (label, count) = brute_components(w, h, &is_core, None, None);
        let mut regions: Vec<usize> = (0..count)
            .map(|k| label.iter().filter(|&&l| l == k).count())
            .collect();
        regions.sort_unstable_by(|a, b| b.cmp(a));
        assert_eq!(
            (core.cells, &core.regions),
            (is_core.iter().filter(|&&c| c).count(), &regions),
            "{what} radius {r}"
        );
        core2 |= r == 2 && core.cells > 0;
    }

    // Symmetry by 2-D coordinates.
    let m = |x: usize, y: usize| member[y * w + x];
    let share = |f: &dyn Fn(usize, usize) -> (usize, usize)| {
        let mut agree = 0;
        for y in 0..h {
            for x in 0..w {
                let (mx, my) = f(x, y);
                agree += usize::from(m(x, y) == m(mx, my));
            }
        }
        agree as f64 / (w * h) as f64
    };
    assert_eq!(
        s.symmetry.vertical,
        Some(share(&|x, y| (w - 1 - x, y))),
        "{what}"
    );
    assert_eq!(
        s.symmetry.horizontal,
        Some(share(&|x, y| (x, h - 1 - y))),
        "{what}"
    );
    assert_eq!(
        s.symmetry.rotation_180,
        Some(share(&|x, y| (w - 1 - x, h - 1 - y))),
        "{what}"
    );
    if w == h {
        assert_eq!(
            s.symmetry.rotation_90,
            Some(share(&|x, y| (w - 1 - y, x))),
            "{what}"
        );
        assert_eq!(s.symmetry.diagonal, Some(share(&|x, y| (y, x))), "{what}");
        assert_eq!(
            s.symmetry.antidiagonal,
            Some(share(&|x, y| (w - 1 - y, w - 1 - x))),
            "{what}"
        );
    }

    [
        !bridges.is_empty(),
        !articulation.is_empty(),
        want.iter().any(|b| b.len() >= 3),
        core2,
    ]
}

#[test]
fn random_small_levels_agree_with_brute_force_on_every_measure() {
    let mut rng = SplitMix64::new(39);
    let mut exercised = [0usize; 4];
    let mut sets = 0;
    for k in 0..200 {
        let (w, h) = if k % 4 == 3 { (6, 5) } else { (6, 6) };
        let tiles = 2 + k % 2;
        let spec = tiles_spec(w, h, tiles);
        let level = random_level(&mut rng, w, h, tiles);
        let d = describe(&spec, &level);
        for s in &d.sets {
            let flags: Vec<bool> = (0..tiles)
                .map(|t| s.tiles.iter().any(|n| *n == spec.tiles[t].name))
                .collect();
            let member: Vec<bool> = level.tiles.iter().map(|&t| flags[t]).collect();
            let seen = check_set(&level, s, &member);
            for (count, seen) in exercised.iter_mut().zip(seen) {
                *count += usize::from(seen);
            }
            sets += 1;
        }
        // The tiles' symmetry is the same share over tile identity.
        let t = |x: usize, y: usize| level.tiles[y * w + x];
        let mut agree = 0;
        for y in 0..h {
            for x in 0..w {
                agree += usize::from(t(x, y) == t(w - 1 - x, y));
            }
        }
        assert_eq!(d.symmetry.vertical, Some(agree as f64 / (w * h) as f64));
    }
    // The interesting cases happened often (bridges, articulation cells, loops, cores).
    assert!(
        exercised[0] > sets / 4 && exercised[1] > sets / 4,
        "{exercised:?} of {sets}"
    );
    assert!(exercised[2] > sets / 10, "{exercised:?} of {sets}");
    assert!(exercised[3] > 10, "{exercised:?} of {sets}");
}

// ----- the quantities the separation and locks rules bound -----

/// Tiles wall `#`, floor `.`, grass `"` (floor and grass in class `walk`), doors `A` and `B`
/// (class `walk` too); a layer of keys `a`, `b` on floor; the rules given as JSON.
fn vocab_spec(w: usize, h: usize, rules: &str) -> GridSpec {
    GridSpec::from_json(&format!(
        r##"{{"width": {w}, "height": {h},
        "tiles": [{{"name": "wall", "glyph": "#"}},
                  {{"name": "floor", "glyph": ".", "classes": ["walk"]}},
                  {{"name": "grass", "glyph": "g", "classes": ["walk"]}},
                  {{"name": "door_a", "glyph": "A", "classes": ["walk"]}},
                  {{"name": "door_b", "glyph": "B", "classes": ["walk"]}}],
        "layers": [{{"name": "items", "values": [{{"name": "none", "glyph": " "}},
            {{"name": "key_a", "glyph": "a", "requires": ["floor"]}},
            {{"name": "key_b", "glyph": "b", "requires": ["floor"]}}]}}],
        {rules}}}"##
    ))
    .unwrap_or_else(|e| panic!("{e}\n{rules}"))
}

/// A random level of [`vocab_spec`]'s tiles, with keys only on floor.
fn random_vocab_level(rng: &mut SplitMix64, w: usize, h: usize) -> Level {
    let mut level = random_level(rng, w, h, 5);
    let items = level.tiles.iter().map(|&t| {
        let roll = rng.next_u64() % 10;
        match (t, roll) {
            (1, 0) => 1,
            (1, 1) => 2,
            _ => 0,
        }
    });
    level.layers = vec![items.collect()];
    level
}

/// The brute force's closest pair: every two distinct cells of the selection, Manhattan
/// (`inner` `None`) or by a breadth-first search from one to the other whose inner cells are
/// the ones `inner` accepts.
fn closest_by_pairs(
    level: &Level,
    selected: &[bool],
    inner: Option<&dyn Fn(usize) -> bool>,
) -> Option<usize> {
    let (w, h) = (level.width, level.height);
    let n = w * h;
    let mut best: Option<usize> = None;
    for s in (0..n).filter(|&c| selected[c]) {
        let (sx, sy) = ((s % w) as i64, (s / w) as i64);
        let dist: Vec<Option<usize>> = match inner {
            None => (0..n)
                .map(|c| {
                    Some(
                        ((c % w) as i64 - sx).unsigned_abs() as usize
                            + ((c / w) as i64 - sy).unsigned_abs() as usize,
                    )
                })
                .collect(),
            Some(inner) => {
                let mut d = vec![None; n];
                d[s] = Some(0usize);
                let mut queue = std::collections::VecDeque::from([s]);
                while let Some(c) = queue.pop_front() {
                    if c != s && !inner(c) {
                        continue; // an end, not an inner cell
                    }
                    let (x, y) = (c % w, c / w);
                    let next = [
                        (y > 0, c.wrapping_sub(w)),
                        (x + 1 < w, c + 1),
                        (y + 1 < h, c + w),
                        (x > 0, c.wrapping_sub(1)),
                    ];
                    for (ok, e) in next {
                        if ok && d[e].is_none() {
                            d[e] = Some(d[c].unwrap() + 1);
                            queue.push_back(e);
                        }
                    }
                }
                d
            }
        };
        for t in (0..n).filter(|&c| selected[c] && c != s) {
            if let Some(d) = dist[t] {
                best = Some(best.map_or(d, |b| b.min(d)));
            }
        }
    }
    best
}

#[test]
fn the_closest_pair_of_a_separation_matches_every_pair_by_brute_force() {
    let spec = vocab_spec(
        6,
        5,
        r#""separation": [{"of": "items.key_a", "min_distance": 3},
                          {"of": "grass", "min_distance": 2, "metric": "walk", "through": "walk"},
                          {"of": "door_a", "min_distance": 4, "metric": "walk", "through": "floor"}]"#,
    );
    let mut rng = SplitMix64::new(42);
    let (mut apart, mut none) = (0, 0);
    for round in 0..400 {
        let level = random_vocab_level(&mut rng, 6, 5);
        let d = describe(&spec, &level);
        let n = level.tiles.len();
        let key_a: Vec<bool> = (0..n).map(|c| level.layers[0][c] == 1).collect();
        let grass: Vec<bool> = (0..n).map(|c| level.tiles[c] == 2).collect();
        let door_a: Vec<bool> = (0..n).map(|c| level.tiles[c] == 3).collect();
        let walk = |c: usize| (1..=4).contains(&level.tiles[c]);
        let floor = |c: usize| level.tiles[c] == 1;
        assert_eq!(
            d.separation[0],
            closest_by_pairs(&level, &key_a, None),
            "round {round}"
        );
        assert_eq!(
            d.separation[1],
            closest_by_pairs(&level, &grass, Some(&walk)),
            "round {round}"
        );
        // Through floor only, the doors themselves being the ends.
        let got = d.separation[2];
        let want = closest_by_pairs(&level, &door_a, Some(&floor));
        assert_eq!(got, want, "round {round}");
        for v in &d.separation {
            match v {
                Some(_) => apart += 1,
                None => none += 1,
            }
        }
    }
    assert!(
        apart > 200 && none > 50,
        "both outcomes seen: {apart} apart, {none} none"
    );
}

#[test]
fn a_locks_progression_reports_the_rule_exactly_when_the_referee_accepts_it() {
    // Two colours from the corner; the rule holds exactly when every colour is gated and every
    // door is reached, which must be the referee's verdict on the same level.
    let spec = vocab_spec(
        5,
        4,
        r#""locks": [{"start": {"x": 0, "y": 0}, "through": ["floor", "grass"],
                      "colors": [{"key": "items.key_a", "door": "door_a"},
                                 {"key": "items.key_b", "door": "door_b"}]}]"#,
    );
    let mut rng = SplitMix64::new(7);
    let (mut holds, mut breaks, mut two_rounds) = (0, 0, 0);
    for round in 0..3000 {
        let mut level = random_vocab_level(&mut rng, 5, 4);
        level.tiles[0] = 1; // the start is floor
        let d = describe(&spec, &level);
        let l = &d.locks[0];
        let described = l.gated.iter().all(|&g| g) && l.doors_reached == l.doors;
        let judged = grim_levels::check_level(&spec, &level).is_ok();
        assert_eq!(described, judged, "round {round}: {l:?}");
        assert_eq!(
            l.rounds,
            l.opened_in.iter().flatten().copied().max().unwrap_or(0),
            "round {round}"
        );
        if judged {
            holds += 1;
        } else {
            breaks += 1;
        }
        if l.rounds >= 2 {
            two_rounds += 1;
        }
    }
    assert!(
        holds > 50 && breaks > 50 && two_rounds > 10,
        "{holds} hold, {breaks} break, {two_rounds} with two rounds"
    );
}
