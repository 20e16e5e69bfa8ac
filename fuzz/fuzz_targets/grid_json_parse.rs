//! Arbitrary bytes as a grid.json: reading and validating never panics (every rejection is a
//! `GridError` with a message), and a spec that validates on a small grid (at most 36 cells)
//! builds its model, solves within a small budget, and any level it returns passes the
//! independent referee `check_level`; when it answers that no level exists on a space of at
//! most 4,096 levels, the referee accepts none of them.
//!
//! libFuzzer mutates the seed corpus (the `instances/grid` files, copied in by `run.sh`) far
//! faster than it invents JSON.
#![no_main]

use grim_encodings::grid::{self, GridError, GridModel, GridOptions, GridSpec, Level};
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
    match grid::solve(&spec, &options, Budget::conflicts(2_000)) {
        Ok(level) => assert_eq!(
            grid::check_level(&spec, &level),
            Ok(()),
            "solve returned a level the referee rejects"
        ),
        // On a space small enough to enumerate, "no level" must be true of every tiling.
        Err(GridError::Unsatisfiable { clash }) => {
            if let Some(levels) = small_space(&spec) {
                assert!(
                    !levels.iter().any(|l| grid::check_level(&spec, l).is_ok()),
                    "solve said no level exists ({clash:?}), the referee accepts one"
                );
            }
        }
        Err(_) => {}
    }
});

/// Every level of `spec` when there are at most 4,096 of them.
fn small_space(spec: &GridSpec) -> Option<Vec<Level>> {
    let cells = spec.cells();
    let mut radices = vec![spec.tiles.len(); cells];
    for l in &spec.layers {
        radices.extend(std::iter::repeat_n(l.values.len(), cells));
    }
    let total = radices
        .iter()
        .try_fold(1usize, |acc, &r| acc.checked_mul(r))
        .filter(|&n| n <= 4096)?;
    let mut out = Vec::with_capacity(total);
    let mut digits = vec![0usize; radices.len()];
    for _ in 0..total {
        out.push(Level {
            width: spec.width,
            height: spec.height,
            tiles: digits[..cells].to_vec(),
            layers: (0..spec.layers.len())
                .map(|l| digits[cells * (l + 1)..cells * (l + 2)].to_vec())
                .collect(),
        });
        for (d, &r) in digits.iter_mut().zip(&radices) {
            *d += 1;
            if *d < r {
                break;
            }
            *d = 0;
        }
    }
    Some(out)
}
