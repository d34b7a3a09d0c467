//! Horizontal bar charts as SVG (plotters): one row per backend, one bar per series.

use std::path::Path;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::table::short;

/// One series of bars: a label for the legend and a value per row (`None`: not measured).
pub(crate) struct Series {
    pub(crate) label: String,
    pub(crate) values: Vec<Option<f64>>,
}

/// A chart to draw.
pub(crate) struct BarChart<'a> {
    pub(crate) title: &'a str,
    /// The value axis' description, with its unit.
    pub(crate) unit: &'a str,
    pub(crate) rows: &'a [String],
    pub(crate) series: Vec<Series>,
    /// Logarithmic value axis, for values spanning several orders of magnitude.
    pub(crate) log: bool,
}

const WIDTH: u32 = 960;
const BAR_PX: u32 = 11;

impl BarChart<'_> {
    /// Whether any bar has a value.
    pub(crate) fn has_values(&self) -> bool {
        self.series
            .iter()
            .any(|s| s.values.iter().any(Option::is_some))
    }

    /// Writes the chart to `path`.
    pub(crate) fn write_svg(&self, path: &Path) -> Result<(), String> {
        self.draw(path)
            .map_err(|e| format!("cannot draw {}: {e}", path.display()))
    }

    fn draw(&self, path: &Path) -> Result<(), Box<dyn std::error::Error>> {
        let rows = self.rows.len();
        let bars = self.series.len().max(1);
        let row_px = BAR_PX * bars as u32 + 10;
        let height = 130 + row_px * rows as u32;
        let root = SVGBackend::new(path, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE)?;
        let values = self
            .series
            .iter()
            .flat_map(|s| s.values.iter().flatten().copied());
        let (ticks, axis) = value_axis(values, self.log);
        let start = ticks[0];
        let mut chart = ChartBuilder::on(&root)
            .caption(self.title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(200)
            .build_cartesian_2d(axis, -0.5..rows as f64 - 0.5)?;
        let log = self.log;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .max_light_lines(0)
            .y_labels(0)
            .x_labels(ticks.len())
            .x_desc(self.unit)
            .x_label_formatter(&|v| axis_label(*v, log))
            .draw()?;
        // Row names to the left of the plot, centred on their bars.
        let name_style = TextStyle::from(("sans-serif", 13).into_font())
            .pos(Pos::new(HPos::Right, VPos::Center));
        for (row, name) in self.rows.iter().enumerate() {
            let (x, y) = chart.backend_coord(&(start, (rows - 1 - row) as f64));
            root.draw(&Text::new(name.as_str(), (x - 8, y), &name_style))?;
        }
        let band = 0.8 / bars as f64;
        for (s, series) in self.series.iter().enumerate() {
            let color = Palette99::pick(s).to_rgba();
            let bars = series.values.iter().enumerate().filter_map(|(row, value)| {
                let value = (*value)?;
                let top = (rows - 1 - row) as f64 + 0.4 - band * s as f64;
                Some((value, top - band * 0.9, top))
            });
            let drawn: Vec<_> = bars.collect();
            chart
                .draw_series(drawn.iter().map(|&(value, low, high)| {
                    let end = if log { value.log10() } else { value };
                    Rectangle::new([(start, low), (end, high)], color.filled())
                }))?
                .label(series.label.as_str())
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled())
                });
            chart.draw_series(drawn.iter().map(|&(value, low, high)| {
                let end = if log { value.log10() } else { value };
                Text::new(
                    format!(" {}", short(value)),
                    (end, (low + high) / 2.0),
                    TextStyle::from(("sans-serif", 10).into_font())
                        .pos(Pos::new(HPos::Left, VPos::Center)),
                )
            }))?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .draw()?;
        root.present()?;
        Ok(())
    }
}

/// The value axis with its tick values: linear from 0 with a round step, or powers of ten
/// (the axis then runs in log10 units).
fn value_axis(values: impl Iterator<Item = f64>, log: bool) -> (Vec<f64>, std::ops::Range<f64>) {
    let (low, high) = values.fold((f64::INFINITY, 0.0f64), |(low, high), v| {
        (low.min(v), high.max(v))
    });
    let high = if high > 0.0 { high } else { 1.0 };
    let ticks: Vec<f64> = if log {
        let low = if low.is_finite() && low > 0.0 {
            low
        } else {
            1.0
        };
        let first = low.log10().floor() as i32;
        let last = high.log10().ceil().max(f64::from(first + 1)) as i32;
        (first..=last).map(f64::from).collect()
    } else {
        let step = round_step(high / 6.0);
        let count = (high * 1.15 / step).ceil() as usize;
        (0..=count).map(|i| i as f64 * step).collect()
    };
    let (first, last) = (ticks[0], ticks[ticks.len() - 1]);
    // Room on the right for the value printed after the longest bar.
    let end = last + (last - first) * 0.08;
    (ticks, first..end)
}

/// 1, 2 or 5 times a power of ten, at least `rough`.
fn round_step(rough: f64) -> f64 {
    let power = 10f64.powf(rough.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&step| step >= rough)
        .unwrap_or(10.0 * power)
}

fn axis_label(v: f64, log: bool) -> String {
    if log { short(10f64.powf(v)) } else { short(v) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_axis_starts_at_zero_with_a_round_step_past_the_largest_value() {
        let (ticks, range) = value_axis([0.8, 9.6, 3.0].into_iter(), false);
        assert_eq!(ticks[0], 0.0);
        assert_eq!(ticks[1], 2.0);
        assert!(*ticks.last().unwrap() >= 9.6);
        assert!(range.end > *ticks.last().unwrap());
    }

    #[test]
    fn log_axis_spans_whole_decades() {
        let (ticks, _) = value_axis([60.0, 13_000.0].into_iter(), true);
        assert_eq!(ticks, vec![1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(axis_label(3.0, true), "1,000");
    }

    #[test]
    fn writes_an_svg_with_every_row_name() {
        let rows = vec!["pext".to_owned(), "fancy".to_owned()];
        let chart = BarChart {
            title: "test",
            unit: "ns",
            rows: &rows,
            series: vec![Series {
                label: "throughput".to_owned(),
                values: vec![Some(1.2), None],
            }],
            log: false,
        };
        let path = std::env::temp_dir().join(format!("bitforge-chart-{}.svg", std::process::id()));
        chart.write_svg(&path).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert!(svg.contains("<svg"), "{}", &svg[..svg.len().min(200)]);
        assert!(svg.contains("\npext\n") && svg.contains("\nfancy\n") && svg.contains("1.20"));
    }
}
