//! A level as an SVG picture: one coloured square per cell, layer values drawn as a small
//! round marker carrying the value's glyph, and a legend under the map naming every colour
//! and marker.
//!
//! Written as plain text rather than with an SVG crate: the picture is a grid of `<rect>`s and
//! a few `<circle>`/`<text>` elements, and the output must be byte-for-byte deterministic (the
//! same level always gives the same file), which plain `format!` guarantees.
//!
//! Colours: a tile's `color` from grid.json when it is a safe CSS colour (`#rgb`, `#rrggbb`,
//! or a name made of letters); otherwise a fixed palette indexed by the tile's position, so a
//! file without colours still reads at a glance and never changes from run to run. Anything
//! else in `color` is ignored rather than pasted into the SVG (it could break the markup).
//!
//! Structure (what tests and scripts can rely on): every map cell is one
//! `<rect class="tile" …>` (exactly width × height of them), every layer marker one
//! `<g class="marker">`, the legend sits in `<g class="legend">`.

use std::fmt::Write as _;

use crate::level::Level;
use crate::spec::GridSpec;

/// Side of one cell in SVG user units (pixels at 100%). 24 keeps a 64×64 map on a screen and
/// a glyph readable in a 12×12 one.
pub const CELL: usize = 24;

/// The fallback palette for tiles without a usable `color`: distinct hues, light and dark
/// alternating so neighbours in the tile list differ in brightness too.
const PALETTE: [&str; 12] = [
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#edc948", "#b07aa1", "#76b7b2", "#ff9da7",
    "#9c755f", "#bab0ac", "#2f4b7c", "#d4a6c8",
];

/// Marker fills per layer value (the first value, "nothing", has no marker).
const MARKER_PALETTE: [&str; 8] = [
    "#d62728", "#ffbf00", "#9467bd", "#1f77b4", "#17becf", "#e377c2", "#8c564b", "#7f7f7f",
];

/// The SVG text of `level`, drawn with the tiles and layers of `spec`. Total: any level whose
/// indices are out of range for `spec` (which `decode` never produces) draws those cells in
/// grey rather than failing.
pub fn render(spec: &GridSpec, level: &Level) -> String {
    let (w, h) = (level.width, level.height);
    let map_w = w * CELL;
    let map_h = h * CELL;
    let legend_rows = spec.tiles.len()
        + spec
            .layers
            .iter()
            .map(|l| l.values.len().saturating_sub(1))
            .sum::<usize>();
    let legend_h = 8 + legend_rows * 20;
    let width = map_w.max(220);
    let height = map_h + legend_h;
    let mut s = String::new();
    // Writing into a String cannot fail.
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="monospace" font-size="{fs}">"#,
        fs = CELL * 2 / 3
    );
    let _ = writeln!(
        s,
        r#"<title>{w}×{h} level: {n} tiles, {m} layers</title>"#,
        n = spec.tiles.len(),
        m = spec.layers.len()
    );
    let _ = writeln!(
        s,
        r##"<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>"##
    );
    let fills: Vec<String> = (0..spec.tiles.len()).map(|t| tile_fill(spec, t)).collect();
    s.push_str("<g class=\"map\">\n");
    for y in 0..h {
        for x in 0..w {
            let c = y * w + x;
            let tile = level.tiles.get(c).copied();
            let (fill, name) = match tile.and_then(|t| Some((fills.get(t)?, spec.tiles.get(t)?))) {
                Some((fill, t)) => (fill.as_str(), t.name.as_str()),
                None => ("#808080", "?"),
            };
            let _ = writeln!(
                s,
                r#"<rect class="tile" x="{}" y="{}" width="{CELL}" height="{CELL}" fill="{fill}"><title>({x}, {y}) {}</title></rect>"#,
                x * CELL,
                y * CELL,
                escape(name)
            );
        }
    }
    // Thin grid lines so equal neighbours still read as separate cells.
    let _ = writeln!(
        s,
        r##"<g stroke="#000000" stroke-opacity="0.15" stroke-width="1">"##
    );
    for x in 0..=w {
        let _ = writeln!(
            s,
            r#"<line x1="{0}" y1="0" x2="{0}" y2="{map_h}"/>"#,
            x * CELL
        );
    }
    for y in 0..=h {
        let _ = writeln!(
            s,
            r#"<line x1="0" y1="{0}" x2="{map_w}" y2="{0}"/>"#,
            y * CELL
        );
    }
    s.push_str("</g>\n</g>\n");
    for (li, layer) in spec.layers.iter().enumerate() {
        let Some(values) = level.layers.get(li) else {
            continue;
        };
        for y in 0..h {
            for x in 0..w {
                let v = values.get(y * w + x).copied().unwrap_or(0);
                if v == 0 {
                    continue;
                }
                let Some(value) = layer.values.get(v) else {
                    continue;
                };
                let (cx, cy) = marker_centre(li, x, y);
                marker(
                    &mut s,
                    cx,
                    cy,
                    marker_radius(li),
                    marker_fill(v),
                    value.glyph,
                    &format!("({x}, {y}) {}.{}", layer.name, value.name),
                );
            }
        }
    }
    legend(&mut s, spec, &fills, map_h);
    s.push_str("</svg>\n");
    s
}

/// Layer 0's markers sit in the middle of the cell; further layers in the corners (NE, SW,
/// NW, SE, then the middle again), smaller, so two layers on one cell stay visible.
fn marker_centre(layer: usize, x: usize, y: usize) -> (usize, usize) {
    let (ox, oy) = match layer % 5 {
        0 => (CELL / 2, CELL / 2),
        1 => (CELL * 3 / 4, CELL / 4),
        2 => (CELL / 4, CELL * 3 / 4),
        3 => (CELL / 4, CELL / 4),
        _ => (CELL * 3 / 4, CELL * 3 / 4),
    };
    (x * CELL + ox, y * CELL + oy)
}

fn marker_radius(layer: usize) -> usize {
    if layer == 0 { CELL * 3 / 8 } else { CELL / 5 }
}

fn marker_fill(value: usize) -> &'static str {
    MARKER_PALETTE[(value.saturating_sub(1)) % MARKER_PALETTE.len()]
}

fn marker(s: &mut String, cx: usize, cy: usize, r: usize, fill: &str, glyph: char, title: &str) {
    let _ = writeln!(
        s,
        r##"<g class="marker"><title>{title}</title><circle cx="{cx}" cy="{cy}" r="{r}" fill="{fill}" stroke="#000000" stroke-width="1"/><text x="{cx}" y="{cy}" font-size="{fs}" text-anchor="middle" dominant-baseline="central" fill="{ink}">{g}</text></g>"##,
        title = escape(title),
        fs = (r * 3 / 2).max(6),
        ink = ink_on(fill),
        g = escape(&glyph.to_string()),
    );
}

fn legend(s: &mut String, spec: &GridSpec, fills: &[String], top: usize) {
    s.push_str("<g class=\"legend\">\n");
    let mut y = top + 8;
    for (t, tile) in spec.tiles.iter().enumerate() {
        let fill = fills.get(t).map_or("#808080", String::as_str);
        let _ = writeln!(
            s,
            r##"<rect x="4" y="{y}" width="16" height="16" fill="{fill}" stroke="#000000" stroke-width="1"/><text x="26" y="{ty}">{g} {name}</text>"##,
            ty = y + 13,
            g = escape(&tile.glyph.to_string()),
            name = escape(&tile.name),
        );
        y += 20;
    }
    for (li, layer) in spec.layers.iter().enumerate() {
        for (v, value) in layer.values.iter().enumerate().skip(1) {
            let r = marker_radius(li).min(8);
            let _ = writeln!(
                s,
                r##"<circle cx="12" cy="{cy}" r="{r}" fill="{fill}" stroke="#000000" stroke-width="1"/><text x="26" y="{ty}">{g} {layer}.{name}</text>"##,
                cy = y + 8,
                fill = marker_fill(v),
                ty = y + 13,
                g = escape(&value.glyph.to_string()),
                layer = escape(&layer.name),
                name = escape(&value.name),
            );
            y += 20;
        }
    }
    s.push_str("</g>\n");
}

/// The fill of tile `t`: its `color` when safe (see the module doc), else the palette.
fn tile_fill(spec: &GridSpec, t: usize) -> String {
    match spec.tiles.get(t).and_then(|tile| tile.color.as_deref()) {
        Some(c) if is_safe_colour(c) => c.to_string(),
        _ => PALETTE[t % PALETTE.len()].to_string(),
    }
}

/// `#rgb`, `#rrggbb` or a CSS colour name (letters only, at most 30).
fn is_safe_colour(c: &str) -> bool {
    match c.strip_prefix('#') {
        Some(hex) => {
            (hex.len() == 3 || hex.len() == 6) && hex.bytes().all(|b| b.is_ascii_hexdigit())
        }
        None => !c.is_empty() && c.len() <= 30 && c.bytes().all(|b| b.is_ascii_alphabetic()),
    }
}

/// Black or white text, whichever reads better on `fill` (a `#rrggbb`; names get black).
fn ink_on(fill: &str) -> &'static str {
    let Some(hex) = fill.strip_prefix('#').filter(|h| h.len() == 6) else {
        return "#000000";
    };
    let channel = |i: usize| {
        hex.get(i..i + 2)
            .and_then(|p| u8::from_str_radix(p, 16).ok())
            .map_or(0.0, |v| f64::from(v) / 255.0)
    };
    // Rec. 709 luma; 0.5 splits light from dark well enough for labels.
    let luma = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
    if luma > 0.5 { "#000000" } else { "#ffffff" }
}

/// Escapes the five XML special characters for character data and attribute values, and
/// replaces control characters (not allowed in XML 1.0) by U+FFFD. Public for the other XML
/// this toolchain writes (the BenchExec export of `grim-bench`).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_colours_are_used() {
        assert!(is_safe_colour("#3b3b46"));
        assert!(is_safe_colour("#fff"));
        assert!(is_safe_colour("teal"));
        assert!(!is_safe_colour("#12345"));
        assert!(!is_safe_colour("red\" onload=\"x"));
        assert!(!is_safe_colour("url(#a)"));
        assert!(!is_safe_colour(""));
    }

    #[test]
    fn escaping_covers_markup_characters() {
        assert_eq!(escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&apos;");
        assert_eq!(escape("x\u{1}"), "x\u{fffd}");
    }

    #[test]
    fn labels_are_dark_on_light_and_light_on_dark() {
        assert_eq!(ink_on("#ffffff"), "#000000");
        assert_eq!(ink_on("#000000"), "#ffffff");
        assert_eq!(ink_on("#ffbf00"), "#000000");
        assert_eq!(ink_on("teal"), "#000000");
    }
}
