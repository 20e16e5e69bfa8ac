//! Arbitrary bytes as a grid.json: reading and validating never panics (every rejection is a
//! `GridError` with a message), and a spec that validates on a small grid (at most 36 cells)
//! builds its model, solves within a small budget, and any level it returns passes the
//! independent referee `check_level`.
//!
//! libFuzzer mutates the seed corpus (the `instances/grid` files, copied in by `run.sh`) far
//! faster than it invents JSON.
#![no_main]

use grim_encodings::grid::{self, GridModel, GridOptions, GridSpec};
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
    if let Ok(level) = grid::solve(&spec, &options, Budget::conflicts(2_000)) {
        assert_eq!(
            grid::check_level(&spec, &level),
            Ok(()),
            "solve returned a level the referee rejects"
        );
    }
});
