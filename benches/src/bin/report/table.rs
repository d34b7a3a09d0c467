//! Markdown tables whose numeric columns mark their best value in bold.

/// An integer with commas between thousands: 107648 as "107,648".
pub(crate) fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// A value with about three significant digits.
pub(crate) fn short(v: f64) -> String {
    if v >= 1000.0 {
        thousands(v.round() as usize)
    } else if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// Which value of a column is best.
#[derive(Clone, Copy)]
pub(crate) enum Best {
    Lowest,
    Highest,
}

/// A table being built: a header, then rows of a name, fixed text cells and numbers.
pub(crate) struct Table {
    header: Vec<String>,
    text_columns: usize,
    best: Best,
    rows: Vec<(Vec<String>, Vec<Option<f64>>)>,
}

impl Table {
    /// A table whose first `text_columns` columns are text and whose others are numbers.
    pub(crate) fn new(header: &[&str], text_columns: usize, best: Best) -> Table {
        Table {
            header: header.iter().map(|h| (*h).to_owned()).collect(),
            text_columns,
            best,
            rows: Vec::new(),
        }
    }

    /// Adds a row (dropped if it has no number at all).
    pub(crate) fn row(&mut self, text: Vec<String>, numbers: Vec<Option<f64>>) {
        if numbers.iter().any(Option::is_some) {
            self.rows.push((text, numbers));
        }
    }

    /// Whether any row was kept.
    pub(crate) fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The table as Markdown.
    pub(crate) fn render(&self) -> String {
        let columns = self.header.len();
        let best: Vec<Option<f64>> = (0..columns - self.text_columns)
            .map(|column| {
                let values = self.rows.iter().filter_map(|(_, numbers)| numbers[column]);
                match self.best {
                    Best::Lowest => values.reduce(f64::min),
                    Best::Highest => values.reduce(f64::max),
                }
            })
            .collect();
        let mut out = format!("| {} |\n", self.header.join(" | "));
        out += &format!("|{}\n", " --- |".repeat(columns));
        for (text, numbers) in &self.rows {
            let cells = numbers.iter().zip(&best).map(|(value, best)| match value {
                Some(v) if Some(*v) == *best && self.rows.len() > 1 => format!("**{}**", short(*v)),
                Some(v) => short(*v),
                None => "-".to_owned(),
            });
            let cells: Vec<String> = text.iter().cloned().chain(cells).collect();
            out += &format!("| {} |\n", cells.join(" | "));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bold_marks_the_best_of_each_column_and_dashes_the_missing() {
        let mut table = Table::new(&["name", "a", "b"], 1, Best::Lowest);
        table.row(vec!["x".into()], vec![Some(2.0), None]);
        table.row(vec!["y".into()], vec![Some(1.5), Some(30.0)]);
        table.row(vec!["z".into()], vec![None, None]);
        let text = table.render();
        assert_eq!(
            text,
            "| name | a | b |\n| --- | --- | --- |\n| x | 2.00 | - |\n| y | **1.50** | **30.0** |\n"
        );
    }

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(4_096), "4,096");
        assert_eq!(thousands(1_078_820_571), "1,078,820,571");
        assert_eq!(short(1_364.6), "1,365");
        assert_eq!(short(759.4), "759");
    }

    #[test]
    fn highest_is_best_when_asked() {
        let mut table = Table::new(&["name", "mnps"], 1, Best::Highest);
        table.row(vec!["slow".into()], vec![Some(100.0)]);
        table.row(vec!["fast".into()], vec![Some(400.0)]);
        assert!(table.render().contains("| fast | **400** |"));
        assert!(table.render().contains("| slow | 100 |"));
    }
}
