//! Time to the first level of an anytime soft solve (`grim_levels::solve_soft_anytime`), for
//! the frame-budget measurements of issue 41: `first_level SPEC [SEED=0] [LEVELS=1]` solves
//! `SPEC` with soft preferences and prints, for each level delivered, its cost and the CPU
//! seconds of the process so far (`/proc/self/schedstat`), stopping after `LEVELS` of them.
//! Small enough to profile whole under `valgrind --tool=callgrind`, where `grim-encode solve
//! -v` would run on after the first level.

use grim_levels::{Budget, Flow, GridOptions, GridSpec};
use std::process::ExitCode;

/// CPU seconds of this process's main thread so far (NaN where the file is missing).
fn cpu() -> f64 {
    std::fs::read_to_string("/proc/self/schedstat")
        .ok()
        .and_then(|t| t.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(f64::NAN, |ns| ns as f64 / 1e9)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let number = |i: usize, default: u64| match args.get(i) {
        None => Some(default),
        Some(s) => s.parse().ok(),
    };
    let (Some(path), Some(seed), Some(want)) = (args.get(1), number(2, 0), number(3, 1)) else {
        eprintln!("usage: first_level SPEC [SEED=0] [LEVELS=1]");
        return ExitCode::from(2);
    };
    let spec = match std::fs::read_to_string(path)
        .map_err(|e| e.to_string())
        .and_then(|text| GridSpec::from_json(&text).map_err(|e| e.to_string()))
    {
        Ok(spec) => spec,
        Err(e) => {
            eprintln!("first_level: {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let options = GridOptions {
        seed: Some(seed),
        soft_preferences: Some(true),
        count_ints: None,
        count_block: None,
    };
    let mut n = 0;
    let solved = grim_levels::solve_soft_anytime(
        &spec,
        &options,
        Budget::UNLIMITED,
        None,
        None,
        &mut |better| {
            n += 1;
            println!("level {n}: cost {} at {:.4} s CPU", better.cost, cpu());
            if n >= want {
                Flow::Stop
            } else {
                Flow::Continue
            }
        },
    );
    match solved {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("first_level: {path}: {e}");
            ExitCode::FAILURE
        }
    }
}
