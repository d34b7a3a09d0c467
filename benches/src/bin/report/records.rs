//! The magic sets kept under `results/magics/`: each re-verified, listed with its scheme, table
//! size and the command that produced it, and the smallest of each category set against the
//! best published tables. Written to `results/magics/README.md`.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use bitforge_index::{MagicSet, Scheme, verify};

use crate::table::thousands;

/// One kept magic set.
pub(crate) struct Record {
    pub(crate) file: String,
    pub(crate) scheme: Scheme,
    pub(crate) post_masked: bool,
    pub(crate) entries: usize,
    pub(crate) command: Option<String>,
}

impl Record {
    fn scheme_label(&self) -> String {
        if self.post_masked {
            format!("{}, post-masked", self.scheme)
        } else {
            self.scheme.to_string()
        }
    }
}

/// Every `.magics` file in `dir`, verified, sorted by name.
pub(crate) fn load(dir: &Path) -> Result<Vec<Record>, String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut records = Vec::new();
    for entry in entries {
        let path = entry
            .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
            .path();
        if path.extension().is_none_or(|ext| ext != "magics") {
            continue;
        }
        let text = fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let set = MagicSet::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let table = verify(&set).map_err(|e| format!("{}: {e}", path.display()))?;
        let command = text
            .lines()
            .find_map(|line| line.strip_prefix("# command:"))
            .map(|command| command.trim().to_owned());
        records.push(Record {
            file: path
                .file_name()
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_default(),
            scheme: set.scheme,
            post_masked: set.post_masked,
            entries: table.entries(),
            command,
        });
    }
    records.sort_by(|a, b| a.file.cmp(&b.file));
    Ok(records)
}

/// A category of table, the kept sets it takes in and the best published figure.
struct Category {
    name: &'static str,
    takes: fn(&Record) -> bool,
    best_known: &'static str,
    best_known_entries: Option<usize>,
}

const CATEGORIES: [Category; 3] = [
    Category {
        name: "fixed shift (black or fixed), packed: one plain table for both pieces",
        takes: |r| r.scheme != Scheme::Fancy && !r.post_masked,
        best_known: "87,988 (black magics: Volker Annuss, Niklas Fiekas); 88,772 for \
                     fixed-shift white magics",
        best_known_entries: Some(87_988),
    },
    Category {
        name: "reduced-bit fancy (variable shift, dense)",
        takes: |r| r.scheme == Scheme::Fancy && !r.post_masked,
        best_known: "92,864 (rook 88,064 + bishop 4,800; plain fancy: 107,648)",
        best_known_entries: Some(92_864),
    },
    Category {
        name: "combined, post-masked: one table, each lookup ANDs its slot with the square's \
               empty-board attacks",
        takes: |r| r.post_masked,
        best_known: "none published that we know of",
        best_known_entries: None,
    },
];

/// The page: the records table, then every kept set.
pub(crate) fn page(records: &[Record]) -> String {
    let mut text = String::from(
        "# Kept magic sets and records\n\n\
         Written by `cargo run --release -p bitforge-benches --bin report` (or `-- \
         --records-only`, which writes only this page) from the `.magics` files here; do not \
         edit by hand. Every set below was verified again, every occupancy of every square \
         against the reference ray walker, when this page was written. How each was reached: \
         [../analysis.md](../analysis.md).\n\n\
         ## Records\n\n\
         The smallest kept table of each category against the best published one (entries of \
         8 bytes):\n\n\
         | category | smallest kept | file | best known | kept / best known |\n\
         | --- | --- | --- | --- | --- |\n",
    );
    for category in &CATEGORIES {
        let best = records
            .iter()
            .filter(|r| (category.takes)(r))
            .min_by_key(|r| r.entries);
        let (entries, file, ratio) = match best {
            Some(record) => (
                thousands(record.entries),
                format!("`{}`", record.file),
                category.best_known_entries.map_or("-".to_owned(), |known| {
                    format!("{:.3}", record.entries as f64 / known as f64)
                }),
            ),
            None => ("-".to_owned(), "-".to_owned(), "-".to_owned()),
        };
        let _ = writeln!(
            text,
            "| {} | {entries} | {file} | {} | {ratio} |",
            category.name, category.best_known
        );
    }
    text += "\n## Every kept set\n\nWith the command that produced it:\n\n\
             | file | scheme | table entries | KiB | command |\n| --- | --- | --- | --- | --- |\n";
    for record in records {
        let _ = writeln!(
            text,
            "| {} | {} | {} | {:.1} | `{}` |",
            record.file,
            record.scheme_label(),
            thousands(record.entries),
            record.entries as f64 * 8.0 / 1024.0,
            record.command.as_deref().unwrap_or("(not recorded)")
        );
    }
    text
}

/// Writes [`page`] as `README.md` in `dir`; returns its path.
pub(crate) fn write(dir: &Path, records: &[Record]) -> Result<PathBuf, String> {
    let path = dir.join("README.md");
    fs::write(&path, page(records)).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(file: &str, scheme: Scheme, post_masked: bool, entries: usize) -> Record {
        Record {
            file: file.to_owned(),
            scheme,
            post_masked,
            entries,
            command: None,
        }
    }

    #[test]
    fn the_records_table_takes_the_smallest_set_of_each_category() {
        let records = [
            record("a.magics", Scheme::Black, false, 99_000),
            record("b.magics", Scheme::Black, false, 101_000),
            record("c.magics", Scheme::Black, true, 69_000),
            record("d.magics", Scheme::Fancy, false, 107_648),
        ];
        let page = page(&records);
        assert!(page.contains("| 99,000 | `a.magics` | 87,988 "), "{page}");
        assert!(page.contains("| 1.125 |"), "{page}");
        assert!(page.contains("| 107,648 | `d.magics` | 92,864 "), "{page}");
        assert!(
            page.contains("| 69,000 | `c.magics` | none published"),
            "{page}"
        );
        assert!(page.contains("| b.magics | black | 101,000 | 789.1 | `(not recorded)` |"));
    }
}
