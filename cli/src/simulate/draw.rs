//! The SVG chart of `seeded-backoff simulate`: requests per second over time, one line per
//! strategy, one panel per scenario. Drawn by plotters' SVG backend, which writes text as SVG
//! `<text>` and so needs no font files.

use std::path::Path;

use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;

/// One strategy's line: (seconds since start, requests per second).
pub struct Series {
    pub name: &'static str,
    pub points: Vec<(f64, f64)>,
}

/// One scenario's chart.
pub struct Panel {
    pub title: String,
    /// Logarithmic axes, for a timeline whose first seconds and long tail both matter. Rates
    /// below `LOG_FLOOR` are drawn at the floor.
    pub log_axes: bool,
    /// A vertical marker, e.g. the moment the server recovers, in seconds.
    pub marker_s: Option<f64>,
    pub series: Vec<Series>,
}

/// Colours that stay apart for the usual colour-vision deficiencies (Okabe and Ito).
const COLOURS: [RGBColor; 6] = [
    RGBColor(0, 0, 0),
    RGBColor(230, 159, 0),
    RGBColor(0, 114, 178),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(213, 94, 0),
];

/// The lowest rate a logarithmic axis shows, requests per second.
const LOG_FLOOR: f64 = 0.1;

const MARKER: RGBColor = RGBColor(200, 30, 30);

const WIDTH: u32 = 1100;
const PANEL_HEIGHT: u32 = 440;

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

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

fn draw_panel(panel: &Panel, area: &Area<'_>) -> Result<(), Box<dyn std::error::Error>> {
    let xs = || {
        panel
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.0))
    };
    let x_max = xs().fold(1.0f64, f64::max);
    let y_max = panel
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .fold(1.0f64, f64::max);
    if panel.log_axes {
        let x_min = xs().filter(|&x| x > 0.0).fold(x_max, f64::min);
        draw_on(
            panel,
            area,
            (x_min..x_max).log_scale(),
            (LOG_FLOOR..y_max * 2.0).log_scale(),
            (
                "time since start (s, log scale)",
                "requests per second (log scale)",
            ),
        )
    } else {
        draw_on(
            panel,
            area,
            0.0..x_max,
            0.0..y_max * 1.05,
            ("time since start (s)", "requests per second"),
        )
    }
}

fn draw_on<X, Y>(
    panel: &Panel,
    area: &Area<'_>,
    x_spec: X,
    y_spec: Y,
    (x_desc, y_desc): (&str, &str),
) -> Result<(), Box<dyn std::error::Error>>
where
    X: AsRangedCoord<Value = f64>,
    X::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: AsRangedCoord<Value = f64>,
    Y::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let floor = if panel.log_axes { LOG_FLOOR } else { 0.0 };
    let mut chart = ChartBuilder::on(area)
        .caption(&panel.title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(42)
        .y_label_area_size(64)
        .build_cartesian_2d(x_spec, y_spec)?;
    let y_max = chart.y_range().end;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .x_label_formatter(&|x| format_axis(*x))
        .y_label_formatter(&|y| format_axis(*y))
        .y_desc(y_desc)
        .axis_desc_style(("sans-serif", 15))
        .label_style(("sans-serif", 13))
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    if let Some(x) = panel.marker_s {
        chart
            .draw_series(LineSeries::new(
                [(x, floor), (x, y_max)],
                ShapeStyle::from(&MARKER).stroke_width(1),
            ))?
            .label(format!("server recovers ({x:.0} s)"))
            .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], MARKER.stroke_width(1)));
    }
    for (i, series) in panel.series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        chart
            .draw_series(LineSeries::new(
                series.points.iter().map(|&(x, y)| (x, y.max(floor))),
                colour.stroke_width(2),
            ))?
            .label(series.name)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], colour.stroke_width(3)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font(("sans-serif", 14))
        .draw()?;
    Ok(())
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
