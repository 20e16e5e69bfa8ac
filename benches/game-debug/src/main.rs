//! Five levels of a grid.json (the README's game loop), timed: `measure.sh` builds this in the
//! dev profile, with the dependencies at opt-level 1 and 3, and in release, and prints the CPU
//! seconds of each (the README's "Debug builds" paragraph).
use grim_levels::{self as grid, Budget, GridOptions, GridSpec};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).expect("grid.json");
    let spec = GridSpec::from_json(&std::fs::read_to_string(path)?)?;
    let start = std::time::Instant::now();
    for seed in 0..5 {
        let options = GridOptions {
            seed: Some(seed),
            ..GridOptions::default()
        };
        let outcome = grid::solve(&spec, &options, Budget::conflicts(1_000_000))?;
        let level = outcome.level().ok_or_else(|| outcome.to_string())?;
        assert!(grid::check_level(&spec, level).is_ok());
    }
    println!("5 levels in {:.3} s", start.elapsed().as_secs_f64());
    Ok(())
}
