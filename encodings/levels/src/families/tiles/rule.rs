//! The tiles family's part of `grid.json`: the `tiles` list (names, glyphs, weights, classes)
//! and the cell domains (`mask`, `pins`, `allowed`), intersected per cell, each restriction
//! kept with the rule it came from for the clash diagnosis.

use crate::spec::problem::{Expected, FieldProblem};
use crate::spec::reader::{
    R, Reader, array, field, glyph, invalid, join, object, required, show, string, uint, wrong,
};
use crate::spec::vocab::{MAX_TILES, RuleRef, Tile, TileSet};
use serde_json::{Map, Value};

/// A cell restriction: the rule, the cell and the tiles it leaves there.
pub(crate) type DomainOrigin = (RuleRef, usize, TileSet);

pub(crate) fn read_tiles(reader: &mut Reader, v: &Value) -> R<()> {
    let list = array(v, "tiles")?;
    if list.is_empty() {
        return Err(invalid("tiles", FieldProblem::NoTiles));
    }
    if list.len() > MAX_TILES {
        return Err(invalid(
            "tiles",
            FieldProblem::TooManyTiles { count: list.len() },
        ));
    }
    for (i, t) in list.iter().enumerate() {
        let path = format!("tiles[{i}]");
        let m = object(t, &path, &["name", "glyph", "weight", "classes", "color"])?;
        let name = reader.new_name(required(m, &path, "name")?, &join(&path, "name"))?;
        let g = glyph(required(m, &path, "glyph")?, &join(&path, "glyph"))?;
        if g == '?' {
            return Err(invalid(&join(&path, "glyph"), FieldProblem::ReservedGlyph));
        }
        if let Some(j) = reader.tiles.iter().position(|t| t.glyph == g) {
            return Err(invalid(
                &join(&path, "glyph"),
                FieldProblem::GlyphTaken { glyph: g, tile: j },
            ));
        }
        let weight = match field(m, "weight") {
            Some(w) => uint(w, &join(&path, "weight"), Expected::AtLeast(0))?,
            None => 1,
        };
        let mut classes = Vec::new();
        if let Some(c) = field(m, "classes") {
            let cp = join(&path, "classes");
            for (k, c) in array(c, &cp)?.iter().enumerate() {
                let at = format!("{cp}[{k}]");
                let s = string(c, &at)?;
                if s.is_empty() || s.contains('.') {
                    return Err(wrong(&at, c, Expected::Name));
                }
                if reader.tiles.iter().any(|t| t.name == s) || s == name {
                    return Err(invalid(
                        &at,
                        FieldProblem::ClassNamedLikeTile { value: show(c) },
                    ));
                }
                if !classes.iter().any(|x: &String| x == s) {
                    classes.push(s.to_string());
                }
            }
        }
        let color = match field(m, "color") {
            Some(c) => Some(string(c, &join(&path, "color"))?.to_string()),
            None => None,
        };
        reader.tiles.push(Tile {
            name,
            glyph: g,
            weight,
            classes,
            color,
        });
    }
    // A tile named like an earlier tile's class.
    for (i, t) in reader.tiles.iter().enumerate() {
        if reader.tiles.iter().any(|u| u.classes.contains(&t.name)) {
            return Err(invalid(
                &format!("tiles[{i}].name"),
                FieldProblem::TileNamedLikeClass {
                    name: t.name.clone(),
                },
            ));
        }
    }
    Ok(())
}

/// The cell domains, and each restriction with the rule it came from.
pub(crate) fn read_domains(
    reader: &Reader,
    m: &Map<String, Value>,
) -> R<(Vec<TileSet>, Vec<DomainOrigin>)> {
    let t = reader.tiles.len();
    let (w, h) = (reader.width, reader.height);
    let mut domains = vec![vec![true; t]; w * h];
    let mut origins: Vec<DomainOrigin> = Vec::new();
    // Which rule last narrowed each cell, for the error when a cell runs empty.
    let mut why: Vec<Option<String>> = vec![None; w * h];
    let names = |set: &[bool]| -> String {
        let v: Vec<&str> = (0..t)
            .filter(|&a| set[a])
            .map(|a| reader.tiles[a].name.as_str())
            .collect();
        v.join(", ")
    };
    let mut narrow = |c: usize, set: &[bool], src: String| -> R<()> {
        let (x, y) = (c % w, c / w);
        let rule = RuleRef {
            path: src.clone(),
            cell: Some((x, y)),
            summary: format!("x={x} y={y}: {}", names(set)),
        };
        origins.push((rule, c, set.to_vec()));
        for (d, s) in domains[c].iter_mut().zip(set) {
            *d &= *s;
        }
        if !domains[c].iter().any(|&b| b) {
            let after = why[c].take();
            return Err(invalid(
                &src,
                FieldProblem::NoTileLeft {
                    cell: (x, y),
                    after,
                },
            ));
        }
        why[c] = Some(src);
        Ok(())
    };
    if let Some(mask) = field(m, "mask") {
        let rows = array(mask, "mask")?;
        if rows.len() != h {
            return Err(invalid(
                "mask",
                FieldProblem::MaskRows {
                    rows: rows.len(),
                    height: h,
                },
            ));
        }
        for (y, row) in rows.iter().enumerate() {
            let p = format!("mask[{y}]");
            let s = string(row, &p)?;
            let chars: Vec<char> = s.chars().collect();
            if chars.len() != w {
                return Err(invalid(
                    &p,
                    FieldProblem::MaskRowLength {
                        value: show(row),
                        chars: chars.len(),
                        width: w,
                    },
                ));
            }
            for (x, ch) in chars.into_iter().enumerate() {
                if ch == '?' {
                    continue;
                }
                let Some(ti) = reader.tiles.iter().position(|t| t.glyph == ch) else {
                    return Err(invalid(&p, FieldProblem::MaskGlyph { glyph: ch, x }));
                };
                let set: Vec<bool> = (0..t).map(|i| i == ti).collect();
                narrow(y * w + x, &set, p.clone())?;
            }
        }
    }
    if let Some(pins) = field(m, "pins") {
        for (i, pin) in array(pins, "pins")?.iter().enumerate() {
            let p = format!("pins[{i}]");
            let pm = object(pin, &p, &["x", "y", "tile"])?;
            let mut xy = Map::new();
            for k in ["x", "y"] {
                xy.insert(k.to_string(), required(pm, &p, k)?.clone());
            }
            let (x, y) = reader.cell(&Value::Object(xy), &p)?;
            let tv = required(pm, &p, "tile")?;
            let name = string(tv, &join(&p, "tile"))?;
            let Some(ti) = reader.tiles.iter().position(|t| t.name == name) else {
                return Err(invalid(
                    &join(&p, "tile"),
                    FieldProblem::NotATile { value: show(tv) },
                ));
            };
            let set: Vec<bool> = (0..t).map(|i| i == ti).collect();
            narrow(y * w + x, &set, p)?;
        }
    }
    if let Some(allowed) = field(m, "allowed") {
        for (i, a) in array(allowed, "allowed")?.iter().enumerate() {
            let p = format!("allowed[{i}]");
            let am = object(a, &p, &["x", "y", "tiles"])?;
            let mut xy = Map::new();
            for k in ["x", "y"] {
                xy.insert(k.to_string(), required(am, &p, k)?.clone());
            }
            let (x, y) = reader.cell(&Value::Object(xy), &p)?;
            let set = reader.tile_sets(required(am, &p, "tiles")?, &join(&p, "tiles"))?;
            narrow(y * w + x, &set, p)?;
        }
    }
    Ok((domains, origins))
}
