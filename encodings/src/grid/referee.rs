//! The referee: checks a [`Level`] against a [`GridSpec`] directly — BFS for connectivity and
//! paths, a flood fill for enclosure, direct counting, the adjacency tables cell by cell — and
//! never looks at an encoding. [`super::solve`] runs every answer through it; the tests compare
//! the encodings against it by enumeration.

use super::spec::{Bound, Endpoint, Selection};
use super::{Dir, GridOptions, GridSpec, Level, connectivity, prefs};

/// `Ok` when `level` satisfies every hard rule of `spec`; otherwise one message per broken
/// rule (each names the rule, `counts[2]`, and what was found). Soft rules never fail here;
/// [`level_cost`] prices them.
pub fn check_level(spec: &GridSpec, level: &Level) -> Result<(), Vec<String>> {
    let mut errors = Vec::new();
    if let Err(e) = shape(spec, level) {
        return Err(vec![e]);
    }
    let cells = spec.cells();
    let at = |c: usize| format!("x={} y={}", c % spec.width, c / spec.width);
    for c in 0..cells {
        let a = level.tiles[c];
        if !spec.domains[c][a] {
            errors.push(format!(
                "cell {}: tile {:?} is excluded by the mask, a pin or an allowed list",
                at(c),
                spec.tiles[a].name
            ));
        }
        for d in Dir::ALL {
            if let Some(e) = spec.neighbour(c, d) {
                let b = level.tiles[e];
                if !spec.adjacent[d as usize][a][b] && (d == Dir::E || d == Dir::S) {
                    errors.push(format!(
                        "adjacency: {:?} on the {} side of {:?} at {}",
                        spec.tiles[b].name,
                        d.name(),
                        spec.tiles[a].name,
                        at(c)
                    ));
                }
            }
        }
        for (l, layer) in spec.layers.iter().enumerate() {
            let v = level.layers[l][c];
            if let Some(req) = &layer.values[v].requires
                && !req[a]
            {
                errors.push(format!(
                    "layers[{l}]: {:?} at {} sits on {:?}, which it does not allow",
                    layer.values[v].name,
                    at(c),
                    spec.tiles[a].name
                ));
            }
        }
    }
    for (i, rule) in spec.counts.iter().enumerate() {
        if rule.weight.is_none()
            && let Some(msg) = count_violation(spec, level, i)
        {
            errors.push(msg);
        }
    }
    for (i, rule) in spec.enclosure.iter().enumerate() {
        if rule.weight.is_none()
            && let Some(msg) = enclosure_violation(spec, level, i)
        {
            errors.push(msg);
        }
    }
    for (i, rule) in spec.connectivity.iter().enumerate() {
        let holds: Vec<bool> = (0..cells).map(|c| rule.class[level.tiles[c]]).collect();
        if let Some((x, y)) = rule.root
            && !holds[spec.index(x, y)]
        {
            errors.push(format!(
                "connectivity[{i}]: the root x={x} y={y} does not hold the class"
            ));
            continue;
        }
        let comps = connectivity::components(spec, &holds);
        if comps.len() > 1 {
            errors.push(format!(
                "connectivity[{i}]: the class forms {} separate regions (sizes {:?})",
                comps.len(),
                comps.iter().map(Vec::len).collect::<Vec<_>>()
            ));
        }
    }
    for (i, rule) in spec.paths.iter().enumerate() {
        let from = endpoint(spec, level, &rule.from);
        let to = endpoint(spec, level, &rule.to);
        let through: Vec<bool> = (0..cells).map(|c| rule.through[level.tiles[c]]).collect();
        // Multi-source BFS; a walk may continue from a cell that is a start or `through`.
        let mut dist = vec![usize::MAX; cells];
        let mut queue: Vec<usize> = (0..cells).filter(|&c| from[c]).collect();
        for &c in &queue {
            dist[c] = 0;
        }
        let mut k = 0;
        while k < queue.len() {
            let c = queue[k];
            k += 1;
            if !(from[c] || through[c]) {
                continue;
            }
            for d in spec.neighbours(c) {
                if dist[d] == usize::MAX {
                    dist[d] = dist[c] + 1;
                    queue.push(d);
                }
            }
        }
        let best = (0..cells).filter(|&c| to[c]).map(|c| dist[c]).min();
        let limit = rule.max_length.unwrap_or(usize::MAX - 1);
        match best {
            Some(d) if d <= limit => {}
            Some(d) if d != usize::MAX => errors.push(format!(
                "paths[{i}]: the shortest walk takes {d} steps, more than {limit}"
            )),
            _ => errors.push(format!("paths[{i}]: no walk connects the ends")),
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// The summed weight of the soft rules `level` breaks: soft counts and enclosures, and (when
/// preferences are soft under `options`) each cell whose tile is not its wished one. This is
/// the cost [`super::solve`] minimises.
pub fn level_cost(spec: &GridSpec, options: &GridOptions, level: &Level) -> u64 {
    if shape(spec, level).is_err() {
        return u64::MAX;
    }
    let mut cost = 0u64;
    for (i, rule) in spec.counts.iter().enumerate() {
        if let Some(w) = rule.weight
            && count_violation(spec, level, i).is_some()
        {
            cost = cost.saturating_add(w);
        }
    }
    for (i, rule) in spec.enclosure.iter().enumerate() {
        if let Some(w) = rule.weight
            && enclosure_violation(spec, level, i).is_some()
        {
            cost = cost.saturating_add(w);
        }
    }
    if let Some(p) = prefs::resolve(spec, options)
        && p.soft
    {
        let wished = prefs::wishes(spec, p.seed);
        for (c, &w) in wished.iter().enumerate() {
            if level.tiles[c] != w {
                cost = cost.saturating_add(p.weight);
            }
        }
    }
    cost
}

/// Dimensions and index ranges.
fn shape(spec: &GridSpec, level: &Level) -> Result<(), String> {
    if level.width != spec.width || level.height != spec.height {
        return Err(format!(
            "the level is {}x{}, the spec {}x{}",
            level.width, level.height, spec.width, spec.height
        ));
    }
    if level.tiles.len() != spec.cells() || level.tiles.iter().any(|&t| t >= spec.tiles.len()) {
        return Err("the level's tiles do not match the spec (length or index)".to_string());
    }
    if level.layers.len() != spec.layers.len()
        || level
            .layers
            .iter()
            .zip(&spec.layers)
            .any(|(v, l)| v.len() != spec.cells() || v.iter().any(|&x| x >= l.values.len()))
    {
        return Err(
            "the level's layers do not match the spec (count, length or index)".to_string(),
        );
    }
    Ok(())
}

fn selected(level: &Level, sel: &Selection, c: usize) -> bool {
    match sel {
        Selection::Tiles(set) => set[level.tiles[c]],
        Selection::LayerValue { layer, value } => level.layers[*layer][c] == *value,
    }
}

fn endpoint(spec: &GridSpec, level: &Level, e: &Endpoint) -> Vec<bool> {
    (0..spec.cells())
        .map(|c| match e {
            Endpoint::Cell(x, y) => c == spec.index(*x, *y),
            Endpoint::Select(sel) => selected(level, sel, c),
        })
        .collect()
}

fn count_violation(spec: &GridSpec, level: &Level, i: usize) -> Option<String> {
    let rule = &spec.counts[i];
    let r = rule.region;
    let mut a = 0u64;
    let mut b = 0u64;
    for y in r.y..r.y + r.h {
        for x in r.x..r.x + r.w {
            let c = spec.index(x, y);
            a += selected(level, &rule.of, c) as u64;
            if let Some(per) = &rule.per {
                b += selected(level, per, c) as u64;
            }
        }
    }
    match &rule.per {
        None => {
            let base = r.cells() as u64;
            let lo = rule.min.map_or(0, |m| m.lower(base));
            let hi = rule.max.map_or(u64::MAX, |m| m.upper(base));
            (a < lo || a > hi)
                .then(|| format!("counts[{i}]: {a} cells, outside [{lo}, {}]", show_hi(hi)))
        }
        Some(_) => {
            let below = rule.min.is_some_and(|m| {
                let (p, q) = m.fraction();
                (q as u128) * (a as u128) < (p as u128) * (b as u128)
            });
            let above = rule.max.is_some_and(|m| {
                let (p, q) = m.fraction();
                (q as u128) * (a as u128) > (p as u128) * (b as u128)
            });
            (below || above).then(|| {
                format!(
                    "counts[{i}]: {a} cells against {b} of the base, outside [{}, {}]",
                    rule.min.map_or(0, |m| m.lower(b)),
                    show_hi(rule.max.map_or(u64::MAX, |m| m.upper(b)))
                )
            })
        }
    }
}

fn show_hi(hi: u64) -> String {
    if hi == u64::MAX {
        "∞".to_string()
    } else {
        hi.to_string()
    }
}

fn enclosure_violation(spec: &GridSpec, level: &Level, i: usize) -> Option<String> {
    let rule = &spec.enclosure[i];
    let cells = spec.cells();
    let open: Vec<bool> = (0..cells).map(|c| rule.open[level.tiles[c]]).collect();
    // Flood fill from the open border cells through open cells.
    let mut reached = vec![false; cells];
    let mut stack: Vec<usize> = (0..cells)
        .filter(|&c| spec.on_border(c) && open[c])
        .collect();
    for &c in &stack {
        reached[c] = true;
    }
    while let Some(c) = stack.pop() {
        for d in spec.neighbours(c) {
            if open[d] && !reached[d] {
                reached[d] = true;
                stack.push(d);
            }
        }
    }
    let mut class = 0u64;
    let mut sealed = 0u64;
    for c in 0..cells {
        if !rule.class[level.tiles[c]] {
            continue;
        }
        class += 1;
        let exposed = spec.on_border(c) || spec.neighbours(c).any(|d| reached[d]);
        sealed += !exposed as u64;
    }
    let need = match rule.min {
        Bound::Absolute(n) => n,
        Bound::Ratio { .. } => rule.min.lower(class),
    };
    (sealed < need).then(|| {
        format!("enclosure[{i}]: {sealed} of {class} class cells sealed off, fewer than {need}")
    })
}
