//! Connectivity in the propagated model after another part's conflicts: a cell that went out
//! waits in the connectivity part's pending list for its local pass; when another part (here
//! the paths part) reports a conflict first, the engine backtracks and the cell may come back
//! free or in before that pass runs. The pass must not treat it as out then: it used to, found
//! a "pocket" that was connected to the root, and refuted it with a clause that is not implied
//! by the rules — a valid level was then refused by the same engine (found on 2026-12-07 by a
//! both-ways test of the paths family; `grim-encode solve` could answer "no level" wrongly).
//!
//! Both ways on random small masked grids with a path and a rooted connectivity rule: the
//! engine, solving one level after another under assumptions (the incremental use that the
//! enumeration, the soft optimiser and a game's repeated calls make), admits exactly the
//! levels the brute force keeps.

use grim_levels::{GridModel, GridOptions, GridSpec, Level};
use grim_solver::{Budget, Status};
use grim_testkit::SplitMix64;
use grim_testkit::grid::{assumptions, both_ways_in_both_models, engine, fitting};
use std::collections::VecDeque;

fn spec(json: &str) -> GridSpec {
    GridSpec::from_json(json).unwrap_or_else(|e| panic!("{e}\n{json}"))
}

/// Breadth-first distances from `start` over a `w`×`h` grid, entering a cell only when
/// `enter` says so (the start is entered regardless).
fn distances(w: usize, h: usize, start: usize, enter: &dyn Fn(usize) -> bool) -> Vec<usize> {
    let mut dist = vec![usize::MAX; w * h];
    dist[start] = 0;
    let mut queue = VecDeque::from([start]);
    while let Some(c) = queue.pop_front() {
        let (x, y) = (c % w, c / w);
        let mut next = Vec::new();
        if x > 0 {
            next.push(c - 1);
        }
        if x + 1 < w {
            next.push(c + 1);
        }
        if y > 0 {
            next.push(c - w);
        }
        if y + 1 < h {
            next.push(c + w);
        }
        for d in next {
            if dist[d] == usize::MAX && enter(d) {
                dist[d] = dist[c] + 1;
                queue.push_back(d);
            }
        }
    }
    dist
}

/// The brute force of the two rules, from FORMAT.md: every floor cell (tile 1) is reached
/// from the root (0, 0) through floor cells, the root itself floor; and some walk from the
/// first cell to the last has at most `max_length` steps (its cells between the ends floor;
/// both ends are pinned floor in these specs, so the ends' own tiles never matter).
fn keeps(l: &Level, max_length: Option<usize>) -> bool {
    let (w, h) = (l.width, l.height);
    let floor = |c: usize| l.tiles[c] == 1;
    if !floor(0) {
        return false;
    }
    let from_root = distances(w, h, 0, &floor);
    let connected = (0..w * h).all(|c| !floor(c) || from_root[c] != usize::MAX);
    let to = w * h - 1;
    connected && from_root[to] <= max_length.unwrap_or(usize::MAX - 1)
}

/// The spec of a `w`×`h` grid with `mask`, a path from the first cell to the last through
/// floor (at most `max_length` steps when given) and floor connected from the root (0, 0).
fn path_and_connectivity(w: usize, h: usize, mask: &[String], max_length: Option<usize>) -> String {
    let bound = max_length.map_or(String::new(), |m| format!(", \"max_length\": {m}"));
    let rows: Vec<String> = mask.iter().map(|r| format!("\"{r}\"")).collect();
    format!(
        r##"{{"width": {w}, "height": {h},
        "tiles": [{{"name": "wall", "glyph": "#"}}, {{"name": "floor", "glyph": "."}}],
        "mask": [{}],
        "paths": [{{"from": {{"x": 0, "y": 0}}, "to": {{"x": {}, "y": {}}}, "through": "floor"{bound}}}],
        "connectivity": [{{"class": "floor", "root": {{"x": 0, "y": 0}}}}]}}"##,
        rows.join(", "),
        w - 1,
        h - 1
    )
}

#[test]
fn the_level_refused_after_a_refuted_one_is_admitted() {
    // The spec and the order of the report: after the engine refutes the first level (its
    // exit walled off), the second, valid one must still be admitted.
    let mask: Vec<String> = [".?...", "??.??", "?#?..", "##???", ".??.."]
        .iter()
        .map(|r| r.to_string())
        .collect();
    let spec = spec(&path_and_connectivity(5, 5, &mask, None));
    let level = |rows: [&str; 5]| Level {
        width: 5,
        height: 5,
        tiles: rows
            .concat()
            .chars()
            .map(|ch| usize::from(ch == '.'))
            .collect(),
        layers: vec![],
    };
    let refuted = level([".....", "##..#", "###..", "#####", ".##.."]);
    let valid = level([".....", "##..#", "###..", "####.", "....."]);
    assert!(!keeps(&refuted, None) && keeps(&valid, None));
    let model = GridModel::build_for_propagator(&spec, &GridOptions::default()).unwrap();
    let mut s = engine(&model);
    let at = |l: &Level| assumptions(&model, &spec, l);
    assert_eq!(s.solve(&at(&refuted), Budget::UNLIMITED), Status::Unsat);
    assert_eq!(s.solve(&at(&valid), Budget::UNLIMITED), Status::Sat);
    assert!(s.propagator_error().is_none());
}

#[test]
fn paths_and_connectivity_admit_exactly_the_brute_force_levels_one_after_another() {
    let mut rng = SplitMix64::new(0x00c0_ffee);
    let (mut kept, mut broken) = (0, 0);
    for round in 0..40 {
        let (w, h) = if round % 2 == 0 { (5, 5) } else { (5, 4) };
        // Ends pinned floor; about a quarter of the rest pinned (mostly walls); at most 11
        // free cells, so that every tiling is listed.
        let mut cells: Vec<char> = (0..w * h)
            .map(|_| match rng.below(8) {
                0 | 1 => '#',
                2 => '.',
                _ => '?',
            })
            .collect();
        cells[0] = '.';
        cells[w * h - 1] = '.';
        while cells.iter().filter(|&&c| c == '?').count() > 11 {
            let c = rng.index(w * h);
            if cells[c] == '?' {
                cells[c] = if rng.below(3) == 0 { '.' } else { '#' };
            }
        }
        let mask: Vec<String> = cells.chunks(w).map(|r| r.iter().collect()).collect();
        let max_length = (round % 3 == 0).then(|| w + h - 2 + rng.index(4));
        let spec = spec(&path_and_connectivity(w, h, &mask, max_length));
        let (k, b) = both_ways_in_both_models(&spec, &fitting(&spec), &|l| keeps(l, max_length));
        kept += k;
        broken += b;
    }
    assert!(
        kept > 0 && broken > 0,
        "the rounds saw both kinds: {kept} kept, {broken} broken"
    );
}
