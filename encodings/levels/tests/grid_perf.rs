//! Timing runs for `FORMAT.md`, ignored by default (speed is measured, never asserted):
//!
//! ```text
//! cargo test --release -p grim-levels --test grid_perf --no-run
//! GRID_FILE=instances/grid/dungeon-32.json GRID_STRATEGY=lazy \
//!   /usr/bin/time -f %U+%S <test binary> --ignored --nocapture
//! ```

use grim_levels::{self as grid, ConnectivityStrategy, GridOptions, GridSpec};
use grim_solver::Budget;
use std::time::Instant;

#[test]
#[ignore = "a timing run: set GRID_FILE (and GRID_STRATEGY=lazy|eager, GRID_SEED)"]
fn solve_the_grid_file_and_print_the_statistics() {
    let Ok(file) = std::env::var("GRID_FILE") else {
        eprintln!("GRID_FILE is not set; nothing to time");
        return;
    };
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let path = if file.starts_with('/') {
        file.clone()
    } else {
        format!("{root}/{file}")
    };
    let text = std::fs::read_to_string(&path).expect("GRID_FILE is readable");
    let spec = GridSpec::from_json(&text).expect("GRID_FILE is a valid grid.json");
    let strategy = match std::env::var("GRID_STRATEGY").as_deref() {
        Ok("eager") => ConnectivityStrategy::Eager,
        _ => ConnectivityStrategy::Lazy,
    };
    let options = GridOptions {
        seed: std::env::var("GRID_SEED").ok().and_then(|s| s.parse().ok()),
        soft_preferences: None,
        ..GridOptions::default()
    };
    let t = Instant::now();
    if std::env::var_os("GRID_EAGER_SIZE").is_some() {
        let model = grid::GridModel::build(&spec, &options).expect("builds");
        let cnf = model.to_wcnf();
        eprintln!(
            "eager model: {} vars, {} hard clauses, built in {:?}",
            cnf.num_vars,
            cnf.hard.len(),
            t.elapsed()
        );
        return;
    }
    let (level, stats) =
        grid::solve_with(&spec, &options, Budget::UNLIMITED, strategy).expect("a level");
    eprintln!("{:?} {:?} wall {:?}", strategy, stats, t.elapsed());
    let level = level.into_level().expect("a level");
    eprint!("{}", level.to_text(&spec));
}
