//! The locks family's part of `grid.json`: [`LockRule`], [`LockColor`] and their reading.

use crate::spec::problem::Expected;
use crate::spec::reader::{R, Reader, array, join, object, required, wrong};
use crate::spec::vocab::{Selection, TileSet};
use serde_json::Value;

/// The family's name: the field of `grid.json` its rules are listed under.
pub(crate) const NAME: &str = "locks";

/// The most colours one rule may have (each costs a staged reachability in the encoding).
pub const MAX_LOCK_COLORS: usize = 16;

/// One colour of a [`LockRule`]: its keys and its doors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LockColor {
    /// The cells holding a key of this colour (a tile, class or `layer.value`).
    pub key: Selection,
    /// The cells that are doors of this colour.
    pub door: Selection,
}

/// `locks[i]`: keys and doors over a player's walk from `start` (`FORMAT.md`, `locks`): every
/// door cell is out of reach until a key of its colour is held, and every door can be opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LockRule {
    /// The player's start `(x, y)`.
    pub start: (usize, usize),
    /// The tiles a player may walk on (besides door cells, which open with their keys).
    pub through: TileSet,
    /// The colours, at least one.
    pub colors: Vec<LockColor>,
}

fn read_color(reader: &Reader, v: &Value, path: &str) -> R<LockColor> {
    let m = object(v, path, &["key", "door"])?;
    Ok(LockColor {
        key: reader.selection(required(m, path, "key")?, &join(path, "key"))?,
        door: reader.selection(required(m, path, "door")?, &join(path, "door"))?,
    })
}

pub(crate) fn read_rule(reader: &Reader, v: &Value, path: &str) -> R<LockRule> {
    let m = object(v, path, &["start", "through", "colors"])?;
    let start = reader.cell(required(m, path, "start")?, &join(path, "start"))?;
    let through = reader.tile_sets(required(m, path, "through")?, &join(path, "through"))?;
    let cp = join(path, "colors");
    let cv = required(m, path, "colors")?;
    let n = array(cv, &cp)?.len();
    if n == 0 || n > MAX_LOCK_COLORS {
        return Err(wrong(
            &cp,
            cv,
            Expected::Range {
                min: 1,
                max: MAX_LOCK_COLORS as u64,
            },
        ));
    }
    let colors = reader.list(cv, &cp, read_color)?;
    Ok(LockRule {
        start,
        through,
        colors,
    })
}
