//! The layers family's part of `grid.json`: the `layers` list, each value with its glyph and
//! `requires`.

use crate::spec::problem::{Expected, FieldProblem};
use crate::spec::reader::{
    R, Reader, array, field, glyph, invalid, join, object, required, show, string, wrong,
};
use crate::spec::vocab::{Layer, LayerValue, MAX_TILES};
use serde_json::Value;

pub(crate) fn read_layers(reader: &mut Reader, v: &Value) -> R<()> {
    for (i, l) in array(v, "layers")?.iter().enumerate() {
        let path = format!("layers[{i}]");
        let m = object(l, &path, &["name", "values"])?;
        let nv = required(m, &path, "name")?;
        let name = reader.new_name(nv, &join(&path, "name"))?;
        if reader.tiles.iter().any(|t| t.classes.contains(&name))
            || reader.layers.iter().any(|l| l.name == name)
        {
            return Err(invalid(
                &join(&path, "name"),
                FieldProblem::LayerNameTaken { value: show(nv) },
            ));
        }
        let vp = join(&path, "values");
        let list = array(required(m, &path, "values")?, &vp)?;
        if list.is_empty() || list.len() > MAX_TILES {
            return Err(invalid(&vp, FieldProblem::ValueCount { count: list.len() }));
        }
        let mut values: Vec<LayerValue> = Vec::new();
        for (k, x) in list.iter().enumerate() {
            let p = format!("{vp}[{k}]");
            let xm = object(x, &p, &["name", "glyph", "requires"])?;
            let xn = required(xm, &p, "name")?;
            let n = string(xn, &join(&p, "name"))?;
            if n.is_empty() || n.contains('.') {
                return Err(wrong(&join(&p, "name"), xn, Expected::Name));
            }
            if values.iter().any(|y| y.name == n) {
                return Err(invalid(
                    &join(&p, "name"),
                    FieldProblem::DuplicateValue { value: show(xn) },
                ));
            }
            let g = glyph(required(xm, &p, "glyph")?, &join(&p, "glyph"))?;
            if let Some(k2) = values.iter().position(|y| y.glyph == g) {
                return Err(invalid(
                    &join(&p, "glyph"),
                    FieldProblem::ValueGlyphTaken {
                        glyph: g,
                        layer: i,
                        value: k2,
                    },
                ));
            }
            let requires = match field(xm, "requires") {
                Some(r) => Some(reader.tile_sets(r, &join(&p, "requires"))?),
                None => None,
            };
            values.push(LayerValue {
                name: n.to_string(),
                glyph: g,
                requires,
            });
        }
        reader.layers.push(Layer { name, values });
    }
    Ok(())
}
