//! Arbitrary bytes as a grid.json: reading and validating never panics (every rejection is a
//! `GridError` with a message, and a syntax error is a classified `JsonProblem`), and a spec
//! that validates on a small grid (at most 36 cells) builds its model, solves within a small
//! budget, and any level it returns passes the independent referee `check_level`; when it
//! answers that no level exists on a space of at most 4,096 levels, the referee accepts none
//! of them.
//!
//! libFuzzer mutates the seed corpus (the `instances/grid` files, copied in by `run.sh`) far
//! faster than it invents JSON.
#![no_main]

use grim_levels::{
    self as grid, GridError, GridModel, GridOptions, GridOutcome, GridSpec, JsonProblem, Level,
};
use grim_solver::Budget;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let spec = match GridSpec::from_json(text) {
        Ok(spec) => spec,
        Err(e) => {
            assert!(!e.to_string().is_empty(), "an error without a message");
            // Every JSON syntax error serde_json gives is one `JsonProblem` knows by name.
            assert!(
                !matches!(
                    e,
                    GridError::Syntax {
                        problem: JsonProblem::Unclassified { .. },
                        ..
                    }
                ),
                "an unclassified syntax error: {e:?}"
            );
            return;
        }
    };
    if spec.width * spec.height > 36 {
        return;
    }
    let options = GridOptions::default();
    if GridModel::build(&spec, &options).is_err() {
        return;
    }
    match grid::solve(&spec, &options, Budget::conflicts(2_000)) {
        Ok(GridOutcome::Level(level)) => assert_eq!(
            grid::check_level(&spec, &level),
            Ok(()),
            "solve returned a level the referee rejects"
        ),
        // On a space small enough to enumerate, "no level" must be true of every tiling.
        Ok(GridOutcome::NoLevel { clash }) => {
            if let Some(levels) = small_space(&spec) {
                assert!(
                    !levels.iter().any(|l| grid::check_level(&spec, l).is_ok()),
                    "solve said no level exists ({clash:?}), the referee accepts one"
                );
            }
        }
        Ok(GridOutcome::Stopped { .. }) | Err(_) => {}
    }
});

/// Every level of `spec` when there are at most 4,096 of them.
fn small_space(spec: &GridSpec) -> Option<Vec<Level>> {
    grim_testkit::grid::count(spec)
        .filter(|&n| n <= 4096)
        .map(|_| grim_testkit::grid::all_levels(spec))
}
