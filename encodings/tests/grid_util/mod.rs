//! Helpers shared by the grid tests: enumerating the levels of a small spec (every one, or a
//! seeded sample) and the assumptions that fix a level's cell and layer variables in a model.
#![allow(dead_code)]

use grim_encodings::grid::{GridModel, GridSpec, Level, SplitMix64};
use grim_solver::Lit;

/// The radix of every digit of a level: a tile per cell, then a value per cell and layer.
fn radices(spec: &GridSpec) -> Vec<usize> {
    let cells = spec.cells();
    let mut radices = vec![spec.tiles.len(); cells];
    for l in &spec.layers {
        radices.extend(std::iter::repeat_n(l.values.len(), cells));
    }
    radices
}

fn level(spec: &GridSpec, digits: &[usize]) -> Level {
    let cells = spec.cells();
    Level {
        width: spec.width,
        height: spec.height,
        tiles: digits[..cells].to_vec(),
        layers: (0..spec.layers.len())
            .map(|l| digits[cells * (l + 1)..cells * (l + 2)].to_vec())
            .collect(),
    }
}

/// How many levels `spec` has (`None` beyond `u64`).
pub fn count(spec: &GridSpec) -> Option<u64> {
    radices(spec)
        .iter()
        .try_fold(1u64, |acc, &r| acc.checked_mul(r as u64))
}

/// Every level of `spec`: tiles then layer values, odometer order.
pub fn all_levels(spec: &GridSpec) -> Vec<Level> {
    let radices = radices(spec);
    let total = count(spec).expect("a space small enough to enumerate") as usize;
    let mut out = Vec::with_capacity(total);
    let mut digits = vec![0usize; radices.len()];
    for _ in 0..total {
        out.push(level(spec, &digits));
        for (d, &r) in digits.iter_mut().zip(&radices) {
            *d += 1;
            if *d < r {
                break;
            }
            *d = 0;
        }
    }
    out
}

/// Every level when there are at most `limit`, else a seeded sample of `sample` levels.
pub fn levels(spec: &GridSpec, limit: u64, sample: usize, seed: u64) -> Vec<Level> {
    match count(spec) {
        Some(n) if n <= limit => all_levels(spec),
        _ => {
            let radices = radices(spec);
            let mut rng = SplitMix64::new(seed);
            (0..sample)
                .map(|_| {
                    let digits: Vec<usize> = radices
                        .iter()
                        .map(|&r| (rng.next_u64() % r as u64) as usize)
                        .collect();
                    level(spec, &digits)
                })
                .collect()
        }
    }
}

/// Literals that fix every cell and layer variable of `model` to `level`.
pub fn assumptions(model: &GridModel, spec: &GridSpec, level: &Level) -> Vec<Lit> {
    let mut a = Vec::new();
    for c in 0..spec.cells() {
        let (x, y) = (c % spec.width, c / spec.width);
        for t in 0..spec.tiles.len() {
            a.push(model.cell_var(x, y, t).lit(level.tiles[c] == t));
        }
        for (l, layer) in spec.layers.iter().enumerate() {
            for v in 0..layer.values.len() {
                a.push(model.layer_var(l, x, y, v).lit(level.layers[l][c] == v));
            }
        }
    }
    a
}
