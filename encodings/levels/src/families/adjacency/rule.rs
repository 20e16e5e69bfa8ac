//! The adjacency family's part of `grid.json`: `adjacency` (`forbid`, `allow`, `directional`)
//! merged into one table per direction, and each rule's forbidden triples kept for the clash
//! diagnosis.

use crate::spec::problem::{AdjacencySource, Expected, FieldProblem};
use crate::spec::reader::{R, Reader, array, field, invalid, join, object, required, wrong};
use crate::spec::vocab::{Dir, RuleRef, TileSet};
use serde_json::Value;

/// An adjacency rule and the `(dir, a, b)` triples it forbids.
pub(crate) type AdjacencyOrigin = (RuleRef, Vec<(Dir, usize, usize)>);

/// The merged adjacency table (see [`GridSpec::adjacent`](crate::spec::GridSpec::adjacent)) and
/// each rule's forbidden triples.
type AdjacencyTables = (
    [Vec<Vec<bool>>; 4],
    Vec<(RuleRef, Vec<(Dir, usize, usize)>)>,
);

/// A name or a list of names as a short text: `wall`, `wall, water`.
fn compact_names(v: &Value) -> String {
    match v {
        Value::Array(list) => list
            .iter()
            .map(|x| x.as_str().unwrap_or("?"))
            .collect::<Vec<_>>()
            .join(", "),
        _ => v.as_str().unwrap_or("?").to_string(),
    }
}

/// The merged per-direction table, and each rule's forbidden triples.
///
/// Every rule marks the `(dir, a, b)` triples it explicitly allows or forbids, with their
/// mirrors `(opposite(dir), b, a)`: a symmetric `forbid` pair forbids it on every side, the
/// symmetric `allow` list forbids every pair it does not name, a directional `allow` forbids
/// the tiles *outside* its list on that side and a directional `forbid` the tiles *in* it.
/// A triple is allowed when no rule forbids it; one rule allowing what another forbids is
/// the contradiction error.
pub(crate) fn read_adjacency(reader: &Reader, v: &Value) -> R<AdjacencyTables> {
    let m = object(v, "adjacency", &["allow", "forbid", "directional"])?;
    let t = reader.tiles.len();
    // Per (dir, a, b): the first rule that explicitly allows / forbids the pair.
    let mut allowed_by: Vec<Option<AdjacencySource>> = vec![None; 4 * t * t];
    let mut forbidden_by: Vec<Option<AdjacencySource>> = vec![None; 4 * t * t];
    let at = |d: Dir, a: usize, b: usize| (d as usize * t + a) * t + b;
    // Each rule's forbidden triples (mirrors included), in rule order.
    let mut rules: Vec<AdjacencyOrigin> = Vec::new();
    // Marks (a, d, b) and its mirror (b, opposite(d), a) in `table`, and in `own` (the
    // rule's list) when given.
    let mark = |table: &mut Vec<Option<AdjacencySource>>,
                own: Option<&mut Vec<(Dir, usize, usize)>>,
                d: Dir,
                a: usize,
                b: usize,
                src: &AdjacencySource| {
        let mut own = own;
        for (i, j, e) in [(a, b, d), (b, a, d.opposite())] {
            let slot = &mut table[at(e, i, j)];
            if slot.is_none() {
                *slot = Some(*src);
            }
            if let Some(list) = own.as_deref_mut()
                && !list.contains(&(e, i, j))
            {
                list.push((e, i, j));
            }
        }
    };
    let pairs = |key: &str| -> R<Vec<(TileSet, TileSet, String, String)>> {
        let mut out = Vec::new();
        if let Some(list) = field(m, key) {
            let p = format!("adjacency.{key}");
            for (i, pair) in array(list, &p)?.iter().enumerate() {
                let pp = format!("{p}[{i}]");
                match pair.as_array().map(|a| a.as_slice()) {
                    Some([x, y]) => out.push((
                        reader.tile_set(x, &format!("{pp}[0]"))?,
                        reader.tile_set(y, &format!("{pp}[1]"))?,
                        pp,
                        format!(
                            "{} beside {}",
                            x.as_str().unwrap_or("?"),
                            y.as_str().unwrap_or("?")
                        ),
                    )),
                    _ => {
                        return Err(wrong(&pp, pair, Expected::Pair));
                    }
                }
            }
        }
        Ok(out)
    };
    for (i, (x, y, _, _)) in pairs("allow")?.into_iter().enumerate() {
        let src = AdjacencySource::Allow(i);
        for a in (0..t).filter(|&a| x[a]) {
            for b in (0..t).filter(|&b| y[b]) {
                for d in Dir::ALL {
                    mark(&mut allowed_by, None, d, a, b, &src);
                }
            }
        }
    }
    for (i, (x, y, path, summary)) in pairs("forbid")?.into_iter().enumerate() {
        let src = AdjacencySource::Forbid(i);
        let mut own = Vec::new();
        for a in (0..t).filter(|&a| x[a]) {
            for b in (0..t).filter(|&b| y[b]) {
                for d in Dir::ALL {
                    mark(&mut forbidden_by, Some(&mut own), d, a, b, &src);
                }
            }
        }
        rules.push((RuleRef::new(path, summary), own));
    }
    // The symmetric allow-list forbids every pair it does not name.
    if field(m, "allow").is_some() {
        let mut own = Vec::new();
        let src = AdjacencySource::NotInAllow;
        for a in 0..t {
            for b in 0..t {
                for d in Dir::ALL {
                    if allowed_by[at(d, a, b)].is_none() {
                        mark(&mut forbidden_by, Some(&mut own), d, a, b, &src);
                    }
                }
            }
        }
        let summary = "only the listed pairs may touch";
        rules.push((RuleRef::new("adjacency.allow", summary), own));
    }
    if let Some(list) = field(m, "directional") {
        for (i, r) in array(list, "adjacency.directional")?.iter().enumerate() {
            let p = format!("adjacency.directional[{i}]");
            let rm = object(r, &p, &["tile", "dir", "allow", "forbid"])?;
            let tv = required(rm, &p, "tile")?;
            let tiles = reader.tile_set(tv, &join(&p, "tile"))?;
            let dv = required(rm, &p, "dir")?;
            let d = match dv.as_str() {
                Some("N") => Dir::N,
                Some("E") => Dir::E,
                Some("S") => Dir::S,
                Some("W") => Dir::W,
                _ => {
                    return Err(wrong(&join(&p, "dir"), dv, Expected::Dir));
                }
            };
            let (allow, forbid) = (field(rm, "allow"), field(rm, "forbid"));
            let (list, is_allow) = match (allow, forbid) {
                (Some(a), None) => (a, true),
                (None, Some(f)) => (f, false),
                _ => {
                    return Err(invalid(&p, FieldProblem::NeedsAllowOrForbid));
                }
            };
            let key = if is_allow { "allow" } else { "forbid" };
            let set = reader.tile_sets(list, &join(&p, key))?;
            let mut own = Vec::new();
            let listed = AdjacencySource::Directional(i);
            let unlisted = AdjacencySource::NotInDirectionalAllow(i);
            for a in (0..t).filter(|&a| tiles[a]) {
                for b in 0..t {
                    match (is_allow, set[b]) {
                        // Listed in an allow-list: explicitly allowed.
                        (true, true) => mark(&mut allowed_by, None, d, a, b, &listed),
                        // Outside an allow-list: forbidden.
                        (true, false) => {
                            mark(&mut forbidden_by, Some(&mut own), d, a, b, &unlisted)
                        }
                        // Listed in a forbid-list: forbidden.
                        (false, true) => mark(&mut forbidden_by, Some(&mut own), d, a, b, &listed),
                        // Outside a forbid-list: this rule says nothing about it.
                        (false, false) => {}
                    }
                }
            }
            let summary = format!(
                "{} of {}: {} {}",
                d.name(),
                tv.as_str().unwrap_or("?"),
                if is_allow { "only" } else { "not" },
                compact_names(list)
            );
            rules.push((RuleRef::new(p, summary), own));
        }
    }
    let mut adjacent: [Vec<Vec<bool>>; 4] = std::array::from_fn(|_| vec![vec![true; t]; t]);
    for d in Dir::ALL {
        for a in 0..t {
            for b in 0..t {
                let k = at(d, a, b);
                if let (Some(yes), Some(no)) = (&allowed_by[k], &forbidden_by[k]) {
                    return Err(invalid(
                        "adjacency",
                        FieldProblem::Contradiction {
                            tile: reader.tiles[b].name.clone(),
                            dir: d,
                            of: reader.tiles[a].name.clone(),
                            allowed_by: *yes,
                            forbidden_by: *no,
                        },
                    ));
                }
                adjacent[d as usize][a][b] = forbidden_by[k].is_none();
            }
        }
    }
    Ok((adjacent, rules))
}
