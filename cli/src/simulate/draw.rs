//! The SVG chart of `seeded-backoff simulate`, one panel per scenario. Drawn by plotters' SVG
//! backend, which writes text as SVG `<text>` and so needs no font files.
//!
//! Made to be read in a few seconds: every strategy has its own colour from the Okabe–Ito palette
//! (distinguishable with the common colour-vision deficiencies) and its own line style, so lines
//! stay apart in grey too; the reference lines have styles of their own (the server's capacity a
//! long dark dash, its recovery a grey dot); a panel says in a line or two what it shows.

use std::path::Path;

use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;

/// One strategy's line.
pub struct Series {
    pub name: String,
    /// Index into [`STYLES`]: a strategy keeps its style in every panel.
    pub style: usize,
    pub points: Vec<(f64, f64)>,
}

/// A reference line, labelled in the legend: horizontal (`y`) or vertical (`x`) at `at`.
pub struct Reference {
    pub at: f64,
    pub vertical: bool,
    pub label: String,
}

/// One scenario's chart.
pub struct Panel {
    pub title: String,
    /// What the panel shows, in one sentence, printed under the title.
    pub takeaway: String,
    pub x_desc: &'static str,
    pub y_desc: &'static str,
    /// A logarithmic time axis (x), for a timeline whose first second and long tail both matter.
    pub x_log: bool,
    pub x_range: (f64, f64),
    /// The y axis is always linear from 0, so a zero is drawn at zero. Values above `y_max` are
    /// clipped at the top and `clip_note` says so on the chart.
    pub y_max: f64,
    pub clip_note: Option<String>,
    pub references: Vec<Reference>,
    /// The legend in the upper left corner instead of the upper right.
    pub legend_left: bool,
    pub series: Vec<Series>,
}

/// The x value at `fraction` of the panel's axis, on its scale.
fn x_at(panel: &Panel, fraction: f64) -> f64 {
    let (x0, x1) = panel.x_range;
    if panel.x_log {
        x0 * (x1 / x0).powf(fraction)
    } else {
        x0 + (x1 - x0) * fraction
    }
}

/// Okabe–Ito colours and a dash pattern (dash, gap in px; `None` = solid) per strategy, in the
/// order of `strategy::ALL_STRATEGIES`: none, google, full, equal, decorrelated, proportional,
/// api-core-default; then the paced fleet (`paced::PACED_STYLE`), in the palette's vermillion's
/// place a long black dash; then the quota's AWS model (purple, solid), the send rate (blue, a
/// long dash) and the quota itself (the capacity line's dark grey dash).
pub const STYLES: [(RGBColor, Option<(u32, u32)>); 11] = [
    (RGBColor(0, 0, 0), None),
    (RGBColor(213, 94, 0), Some((10, 5))),
    (RGBColor(0, 114, 178), None),
    (RGBColor(0, 158, 115), Some((3, 4))),
    (RGBColor(204, 121, 167), Some((14, 4))),
    (RGBColor(230, 159, 0), Some((6, 3))),
    (RGBColor(86, 180, 233), Some((2, 3))),
    (RGBColor(0, 0, 0), Some((18, 3))),
    (RGBColor(204, 121, 167), None),
    (RGBColor(0, 114, 178), Some((24, 3))),
    (RGBColor(60, 60, 60), Some((10, 5))),
];

const GREY: RGBColor = RGBColor(110, 110, 110);

const WIDTH: u32 = 1100;
const PANEL_HEIGHT: u32 = 470;

pub fn write_svg(path: &Path, panels: &[Panel]) -> Result<(), String> {
    let height = PANEL_HEIGHT * panels.len().max(1) as u32;
    let root = SVGBackend::new(path, (WIDTH, height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let areas = root.split_evenly((panels.len().max(1), 1));
    for (panel, area) in panels.iter().zip(&areas) {
        draw_panel(panel, area).map_err(|e| e.to_string())?;
    }
    root.present().map_err(|e| e.to_string())
}

/// The longest takeaway line, in characters: at the chart's 1100 px and the takeaway's font (about
/// 6.5 px a character in the common sans-serif fonts), 150 leave a margin at the panel's edge.
const TAKEAWAY_CHARS: usize = 150;

/// `text` in lines of at most `max` characters, broken between words (a longer word stands alone).
fn wrap(text: &str, max: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= max => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// A reference line's colour and dashes (on, off px): the capacity a long dark dash, the
/// recovery a grey dot, so the two read apart in the chart and its legend.
fn reference_style(vertical: bool) -> (RGBColor, (u32, u32)) {
    if vertical {
        (RGBColor(150, 150, 150), (2, 4))
    } else {
        (RGBColor(60, 60, 60), (10, 5))
    }
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

fn draw_panel(panel: &Panel, area: &Area<'_>) -> Result<(), Box<dyn std::error::Error>> {
    let lines = wrap(&panel.takeaway, TAKEAWAY_CHARS);
    let (title, rest) = area.split_vertically(30);
    let (takeaway, plot) = rest.split_vertically(6 + 20 * lines.len() as u32);
    title.draw(&Text::new(
        panel.title.as_str(),
        (14, 6),
        ("sans-serif", 19).into_font().style(FontStyle::Bold),
    ))?;
    for (i, line) in lines.iter().enumerate() {
        takeaway.draw(&Text::new(
            line.as_str(),
            (14, 2 + 20 * i as i32),
            ("sans-serif", 16).into_font().color(&BLACK),
        ))?;
    }
    let (x0, x1) = panel.x_range;
    if panel.x_log {
        draw_on(panel, &plot, (x0..x1).log_scale())
    } else {
        draw_on(panel, &plot, x0..x1)
    }
}

fn draw_on<X>(panel: &Panel, area: &Area<'_>, x_spec: X) -> Result<(), Box<dyn std::error::Error>>
where
    X: AsRangedCoord<Value = f64>,
    X::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let y_max = panel.y_max;
    let mut chart = ChartBuilder::on(area)
        .margin_left(12)
        .margin_right(24)
        .margin_bottom(8)
        .x_label_area_size(42)
        .y_label_area_size(64)
        .build_cartesian_2d(x_spec, 0.0..y_max)?;
    let (x0, x1) = panel.x_range;
    chart
        .configure_mesh()
        .x_desc(panel.x_desc)
        .y_desc(panel.y_desc)
        .x_label_formatter(&|x| format_axis(*x))
        .y_label_formatter(&|y| format_axis(*y))
        .axis_desc_style(("sans-serif", 15))
        .label_style(("sans-serif", 13))
        .bold_line_style(RGBColor(225, 225, 225))
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    for r in &panel.references {
        let line = if r.vertical {
            [(r.at, 0.0), (r.at, y_max)]
        } else {
            [(x0, r.at), (x1, r.at)]
        };
        // Labelled in the legend, where no line can cover the label.
        let (colour, (on, off)) = reference_style(r.vertical);
        chart
            .draw_series(DashedLineSeries::new(line, on, off, colour.stroke_width(2)))?
            .label(r.label.as_str())
            .legend(move |(x, y)| legend_sample(x, y, colour, Some((on, off))));
    }
    for series in &panel.series {
        let (colour, dash) = STYLES[series.style % STYLES.len()];
        let style = colour.stroke_width(2);
        let points = series.points.iter().map(|&(x, y)| (x, y.min(y_max)));
        match dash {
            None => chart.draw_series(LineSeries::new(points, style))?,
            Some((on, off)) => chart.draw_series(DashedLineSeries::new(points, on, off, style))?,
        }
        .label(series.name.as_str())
        .legend(move |(x, y)| legend_sample(x, y, colour, dash));
    }
    if let Some(note) = &panel.clip_note {
        chart.plotting_area().draw(
            &(EmptyElement::at((x_at(panel, 0.035), y_max))
                + Text::new(
                    note.clone(),
                    (0, 6),
                    ("sans-serif", 14).into_font().color(&BLACK),
                )),
        )?;
    }
    chart
        .configure_series_labels()
        .position(if panel.legend_left {
            SeriesLabelPosition::UpperLeft
        } else {
            SeriesLabelPosition::UpperRight
        })
        .background_style(WHITE.mix(0.92))
        .border_style(GREY)
        .label_font(("sans-serif", 14))
        .draw()?;
    Ok(())
}

/// The legend's sample of a line: 30 px in the series' colour, as three dashes of its pattern
/// (touching, for a solid line).
fn legend_sample<'a, DB: DrawingBackend + 'a>(
    x: i32,
    y: i32,
    colour: RGBColor,
    dash: Option<(u32, u32)>,
) -> impl plotters::element::IntoDynElement<'a, DB, (i32, i32)> + 'a {
    let (on, off) = dash.map_or((10, 0), |(on, off)| (on as i32, off as i32));
    let style = colour.stroke_width(3);
    let dash_at = |i: i32| {
        let from = (i * (on + off)).min(30);
        PathElement::new(vec![(from, 0), ((from + on).min(30), 0)], style)
    };
    EmptyElement::at((x, y)) + dash_at(0) + dash_at(1) + dash_at(2)
}

/// Axis numbers without needless decimals: 0.05, 0.5, 5, 50.
fn format_axis(x: f64) -> String {
    if x >= 1.0 || x == 0.0 {
        format!("{x:.0}")
    } else {
        let text = format!("{x:.3}");
        text.trim_end_matches('0').to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_takeaway_wraps_between_words_within_the_limit() {
        let text = "After recovery none, google come back in bursts of up to 831 requests/s against a capacity of 100; full, equal, decorrelated, proportional peak at 100 or less. api-core-default gave up on every client";
        let lines = wrap(text, TAKEAWAY_CHARS);
        assert_eq!(lines.len(), 2);
        assert!(lines.iter().all(|l| l.chars().count() <= TAKEAWAY_CHARS));
        assert_eq!(lines.join(" "), text);
        assert_eq!(wrap("short", TAKEAWAY_CHARS), ["short"]);
    }

    #[test]
    fn the_capacity_and_the_recovery_lines_look_different() {
        assert_ne!(reference_style(false), reference_style(true));
    }
}
