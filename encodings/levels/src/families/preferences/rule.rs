//! The preferences family's part of `grid.json`: [`Preferences`] and its reading.

use crate::spec::problem::Expected;
use crate::spec::reader::{R, field, object, uint, weight, wrong};
use serde_json::Value;

/// Seeded preferences.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preferences {
    /// The PRNG seed.
    pub seed: u64,
    /// `false`: phase hints ("hint"); `true`: weighted soft clauses ("soft").
    pub soft: bool,
    /// The weight of each soft wish (mode "soft").
    pub weight: u64,
}

pub(crate) fn read_rule(v: &Value) -> R<Preferences> {
    let path = "preferences";
    let m = object(v, path, &["seed", "mode", "weight"])?;
    let seed = match field(m, "seed") {
        Some(s) => uint(
            s,
            "preferences.seed",
            Expected::Range {
                min: 0,
                max: u64::MAX,
            },
        )?,
        None => 0,
    };
    let soft = match field(m, "mode") {
        None => false,
        Some(Value::String(s)) if s == "hint" => false,
        Some(Value::String(s)) if s == "soft" => true,
        Some(x) => {
            return Err(wrong("preferences.mode", x, Expected::Mode));
        }
    };
    Ok(Preferences {
        seed,
        soft,
        weight: weight(m, path)?.unwrap_or(1),
    })
}
