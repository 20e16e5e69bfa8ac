//! The reader core: the JSON helpers every family's reading uses, and [`Reader`], the names read
//! so far (tiles, classes, layers) and the resolving of a name, a cell or a number against
//! them.
//!
//! The file is parsed into a `serde_json::Value` first and then walked by hand rather than
//! deserialised with derived types: a derived deserialiser reports "invalid type: string, expected
//! u64 at line 4 column 17", while a designer needs the field and the value
//! (`tiles[3].glyph: "##" must be one character`). Every name is resolved here (tile, class,
//! `layer.value`), every number range-checked and ratios turned into exact fractions, so the
//! encodings and the referee only ever see indices. Each family reads its own fields
//! (`families/<name>/rule.rs`) with these helpers; the order of the passes is `read.rs`'s.

use super::problem::{Axis, Expected, FieldProblem};
use super::vocab::{Bound, Layer, MAX_SIDE, RATIO_DENOMINATOR, Selection, Tile, TileSet};
use crate::error::GridError;
use serde_json::{Map, Value};

/// A value shown in an error: compact JSON, cut at 40 characters.
pub(crate) fn show(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 40 {
        let cut: String = s.chars().take(37).collect();
        format!("{cut}...")
    } else {
        s
    }
}

pub(crate) fn invalid(field: &str, problem: FieldProblem) -> GridError {
    GridError::Invalid {
        field: field.to_string(),
        problem,
    }
}

/// `v` is not what the field at `path` accepts.
pub(crate) fn wrong(path: &str, v: &Value, expected: Expected) -> GridError {
    invalid(
        path,
        FieldProblem::WrongValue {
            value: show(v),
            expected,
        },
    )
}

/// What every reading function returns.
pub(crate) type R<T> = Result<T, GridError>;

pub(crate) fn object<'a>(
    v: &'a Value,
    path: &str,
    known: &'static [&'static str],
) -> R<&'a Map<String, Value>> {
    let Some(m) = v.as_object() else {
        return Err(wrong(path, v, Expected::Object));
    };
    for key in m.keys() {
        if !known.contains(&key.as_str()) {
            let at = if path.is_empty() {
                key.clone()
            } else {
                format!("{path}.{key}")
            };
            return Err(invalid(&at, FieldProblem::UnknownField { known }));
        }
    }
    Ok(m)
}

pub(crate) fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// A present, non-null field.
pub(crate) fn field<'a>(m: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    m.get(key).filter(|v| !v.is_null())
}

pub(crate) fn required<'a>(m: &'a Map<String, Value>, path: &str, key: &str) -> R<&'a Value> {
    field(m, key).ok_or_else(|| invalid(&join(path, key), FieldProblem::Missing))
}

pub(crate) fn uint(v: &Value, path: &str, expected: Expected) -> R<u64> {
    v.as_u64().ok_or_else(|| wrong(path, v, expected))
}

pub(crate) fn string<'a>(v: &'a Value, path: &str) -> R<&'a str> {
    v.as_str().ok_or_else(|| wrong(path, v, Expected::String))
}

pub(crate) fn array<'a>(v: &'a Value, path: &str) -> R<&'a Vec<Value>> {
    v.as_array().ok_or_else(|| wrong(path, v, Expected::Array))
}

pub(crate) fn glyph(v: &Value, path: &str) -> R<char> {
    let s = string(v, path)?;
    let mut it = s.chars();
    match (it.next(), it.next()) {
        (Some(c), None) if !c.is_control() => Ok(c),
        _ => Err(wrong(path, v, Expected::Character)),
    }
}

/// A number read as a bound: a JSON integer is absolute; a number with a fraction part (or a
/// decimal point, `1.0`) is a ratio in [0, 1], read to 6 decimal places.
pub(crate) fn bound(v: &Value, path: &str, ratio_only: bool) -> R<Bound> {
    if let Some(n) = v.as_u64() {
        if !ratio_only {
            return Ok(Bound::Absolute(n));
        }
        if n <= 1 {
            return Ok(reduce(n * RATIO_DENOMINATOR, RATIO_DENOMINATOR));
        }
        return Err(wrong(path, v, Expected::RatioWithPer));
    }
    match v.as_f64() {
        Some(f) if (0.0..=1.0).contains(&f) => match millionths(&v.to_string()) {
            Some(num) if num <= RATIO_DENOMINATOR => Ok(reduce(num, RATIO_DENOMINATOR)),
            _ => Err(wrong(path, v, Expected::Ratio)),
        },
        Some(_) if v.is_number() => Err(wrong(path, v, Expected::CountOrRatio)),
        _ => Err(wrong(path, v, Expected::Number)),
    }
}

/// A decimal number's text (`0.3`, `1.0`, `5e-7`: what serde_json prints for the number read,
/// the shortest text that reads back as the same double) rounded to a whole number of
/// millionths, halves up (`0.0000005` is 1). Exact decimal arithmetic rather than `f · 10⁶`
/// in floating point, whose rounding could move a value written just below a half across it.
/// `None` for a negative number or text that is not a plain decimal.
fn millionths(text: &str) -> Option<u64> {
    let (mantissa, exponent) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i32>().ok()?),
        None => (text, 0),
    };
    if let Some(magnitude) = mantissa.strip_prefix('-') {
        // Only zero may carry a sign.
        return magnitude.chars().all(|c| c == '0' || c == '.').then_some(0);
    }
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits: String = format!("{int}{frac}");
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits = digits.trim_start_matches('0');
    // value = digits · 10^shift; we want round(value · 10⁶).
    let shift = exponent
        .checked_sub(i32::try_from(frac.len()).ok()?)?
        .checked_add(6)?;
    if digits.is_empty() {
        return Some(0);
    }
    if shift >= 0 {
        // A whole number of millionths; anything longer than 20 digits is far beyond 1.
        let padded = format!(
            "{digits}{}",
            "0".repeat(usize::try_from(shift).ok()?.min(40))
        );
        return padded.parse::<u64>().ok();
    }
    let cut = usize::try_from(-shift).ok()?;
    if cut > digits.len() {
        // Below a tenth of a millionth: rounds to 0.
        return Some(0);
    }
    let (keep, dropped) = digits.split_at(digits.len() - cut);
    let whole = if keep.is_empty() {
        0
    } else {
        keep.parse::<u64>().ok()?
    };
    let half_or_more = dropped.as_bytes().first().is_some_and(|&b| b >= b'5');
    whole.checked_add(half_or_more as u64)
}

fn reduce(num: u64, den: u64) -> Bound {
    let g = gcd(num, den).max(1);
    Bound::Ratio {
        num: num / g,
        den: den / g,
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Validation state: what has been read so far (later sections resolve names against it).
#[derive(Default)]
pub(crate) struct Reader {
    /// Columns.
    pub(crate) width: usize,
    /// Rows.
    pub(crate) height: usize,
    /// The tiles read so far (the tiles family's first pass).
    pub(crate) tiles: Vec<Tile>,
    /// The layers read so far (the layers family's first pass).
    pub(crate) layers: Vec<Layer>,
}

impl Reader {
    pub(crate) fn side(&self, m: &Map<String, Value>, key: &str) -> R<usize> {
        let v = required(m, "", key)?;
        match v.as_u64() {
            Some(n) if n >= 1 && n <= MAX_SIDE as u64 => Ok(n as usize),
            _ => Err(wrong(
                key,
                v,
                Expected::Range {
                    min: 1,
                    max: MAX_SIDE as u64,
                },
            )),
        }
    }
    pub(crate) fn list<T>(
        &self,
        v: &Value,
        path: &str,
        item: fn(&Reader, &Value, &str) -> R<T>,
    ) -> R<Vec<T>> {
        array(v, path)?
            .iter()
            .enumerate()
            .map(|(i, v)| item(self, v, &format!("{path}[{i}]")))
            .collect()
    }
    /// A tile or layer name: non-empty, no '.', not taken.
    pub(crate) fn new_name(&self, v: &Value, path: &str) -> R<String> {
        let s = string(v, path)?;
        if s.is_empty() || s.contains('.') || s == "?" {
            return Err(wrong(path, v, Expected::Name));
        }
        if let Some(j) = self.tiles.iter().position(|t| t.name == s) {
            return Err(invalid(
                path,
                FieldProblem::NameTaken {
                    value: show(v),
                    tile: j,
                },
            ));
        }
        Ok(s.to_string())
    }
    /// A tile name or class name → the set of its tiles.
    pub(crate) fn tile_set(&self, v: &Value, path: &str) -> R<TileSet> {
        let s = string(v, path)?;
        let set: TileSet = self
            .tiles
            .iter()
            .map(|t| t.name == s || t.classes.iter().any(|c| c == s))
            .collect();
        if set.iter().any(|&b| b) {
            Ok(set)
        } else {
            Err(invalid(
                path,
                FieldProblem::NotATileOrClass { value: show(v) },
            ))
        }
    }
    /// A name or a list of names → the union of their tile sets.
    pub(crate) fn tile_sets(&self, v: &Value, path: &str) -> R<TileSet> {
        match v {
            Value::Array(list) => {
                let mut set = vec![false; self.tiles.len()];
                for (i, x) in list.iter().enumerate() {
                    for (s, b) in set
                        .iter_mut()
                        .zip(self.tile_set(x, &format!("{path}[{i}]"))?)
                    {
                        *s |= b;
                    }
                }
                Ok(set)
            }
            _ => self.tile_set(v, path),
        }
    }
    /// A tile or class name, or `layer.value`.
    pub(crate) fn selection(&self, v: &Value, path: &str) -> R<Selection> {
        let s = string(v, path)?;
        if let Some((layer, value)) = s.split_once('.') {
            let Some(li) = self.layers.iter().position(|l| l.name == layer) else {
                return Err(invalid(
                    path,
                    FieldProblem::NoSuchLayer {
                        value: show(v),
                        layer: layer.to_string(),
                    },
                ));
            };
            let Some(vi) = self.layers[li].values.iter().position(|x| x.name == value) else {
                return Err(invalid(
                    path,
                    FieldProblem::NoSuchLayerValue {
                        value: show(v),
                        layer: layer.to_string(),
                        name: value.to_string(),
                    },
                ));
            };
            return Ok(Selection::LayerValue {
                layer: li,
                value: vi,
            });
        }
        Ok(Selection::Tiles(self.tile_set(v, path)?))
    }
    pub(crate) fn cell(&self, v: &Value, path: &str) -> R<(usize, usize)> {
        let m = object(v, path, &["x", "y"])?;
        let x = uint(required(m, path, "x")?, &join(path, "x"), Expected::Column)?;
        let y = uint(required(m, path, "y")?, &join(path, "y"), Expected::Row)?;
        if x >= self.width as u64 {
            return Err(invalid(
                &join(path, "x"),
                FieldProblem::OutsideGrid {
                    coordinate: x,
                    axis: Axis::X,
                    size: self.width,
                },
            ));
        }
        if y >= self.height as u64 {
            return Err(invalid(
                &join(path, "y"),
                FieldProblem::OutsideGrid {
                    coordinate: y,
                    axis: Axis::Y,
                    size: self.height,
                },
            ));
        }
        Ok((x as usize, y as usize))
    }
}

/// An optional `weight`: `None` (hard) when absent, else a whole number ≥ 1.
pub(crate) fn weight(m: &Map<String, Value>, path: &str) -> R<Option<u64>> {
    match field(m, "weight") {
        None => Ok(None),
        Some(v) => match v.as_u64() {
            Some(w) if w >= 1 => Ok(Some(w)),
            _ => Err(wrong(&join(path, "weight"), v, Expected::AtLeast(1))),
        },
    }
}
