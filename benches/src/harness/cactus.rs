//! The cactus plot: for each solver, its solved instances sorted by CPU time, the i-th
//! fastest at x = i — so a line reaching further right solves more, and a lower line solves
//! them faster. The picture SAT and MaxSAT competitions are read by.
//!
//! Drawn with `plotters`' SVG backend into a string (no font files: with its `ttf` feature off,
//! plotters estimates text extents and leaves the drawing of text to the SVG viewer).

use plotters::prelude::*;

/// Colours of the solver lines, in the order the solvers were given: distinguishable,
/// and readable on white (after the Tableau 10 palette).
const COLOURS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

/// One solver's line: its name and the CPU seconds of each instance it solved.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The solver's name (the legend adds the solved count).
    pub solver: String,
    /// CPU seconds of the solved runs, any order.
    pub times: Vec<f64>,
}

/// The SVG text of the cactus plot of `lines` over `instances` instances with CPU limit
/// `timeout`, titled `title`.
pub fn cactus_svg(
    lines: &[Line],
    instances: usize,
    timeout: f64,
    title: &str,
) -> Result<String, String> {
    let mut svg = String::new();
    draw(&mut svg, lines, instances, timeout, title)
        .map_err(|e| format!("drawing the cactus plot: {e}"))?;
    Ok(svg)
}

fn draw<'a>(
    svg: &'a mut String,
    lines: &[Line],
    instances: usize,
    timeout: f64,
    title: &str,
) -> Result<(), Box<dyn std::error::Error + 'a>> {
    let root = SVGBackend::with_string(svg, (900, 560)).into_drawing_area();
    root.fill(&WHITE)?;
    let x_max = instances.max(1) as f64;
    let y_max = if timeout > 0.0 { timeout * 1.05 } else { 1.0 };
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(18)
        .x_label_area_size(48)
        .y_label_area_size(64)
        .build_cartesian_2d(0f64..x_max, 0f64..y_max)?;
    chart
        .configure_mesh()
        .x_desc("instances solved")
        .y_desc("CPU seconds per instance")
        .axis_desc_style(("sans-serif", 16))
        .label_style(("sans-serif", 14))
        .light_line_style(RGBColor(235, 235, 235))
        // Instances are counted: label whole numbers only.
        .x_label_formatter(&|x| {
            if x.fract() == 0.0 {
                format!("{x:.0}")
            } else {
                String::new()
            }
        })
        .draw()?;
    // The time limit, dashed, so that the top of the plot reads as "unsolved beyond here".
    chart.draw_series(DashedLineSeries::new(
        [(0.0, timeout), (x_max, timeout)],
        6,
        4,
        RGBColor(160, 160, 160).stroke_width(1),
    ))?;
    for (k, line) in lines.iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        let mut times = line.times.clone();
        times.sort_by(f64::total_cmp);
        let points: Vec<(f64, f64)> = times
            .iter()
            .enumerate()
            .map(|(i, &t)| ((i + 1) as f64, t))
            .collect();
        chart
            .draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))?
            .label(format!("{} ({} solved)", line.solver, times.len()))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 24, y)], colour.stroke_width(3))
            });
        chart.draw_series(
            points
                .into_iter()
                .map(|p| Circle::new(p, 3, colour.filled())),
        )?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .label_font(("sans-serif", 15))
        .background_style(WHITE.mix(0.9))
        .border_style(RGBColor(120, 120, 120))
        .draw()?;
    root.present()?;
    Ok(())
}
