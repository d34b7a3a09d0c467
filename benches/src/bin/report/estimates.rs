//! Reading what criterion saved: for every benchmark, its median time per iteration and how
//! many elements an iteration handles.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde_json::Value;

use crate::walk;

/// One benchmark's saved estimate.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Estimate {
    /// Median nanoseconds per iteration.
    pub(crate) median_ns: f64,
    /// Elements per iteration, when the benchmark declared a throughput.
    pub(crate) elements: Option<u64>,
    /// When criterion wrote it (the file's modification time), if the file system says.
    pub(crate) saved: Option<SystemTime>,
}

/// Every benchmark criterion saved under one directory, by full id (`group/function`).
#[derive(Debug, Default)]
pub(crate) struct Estimates {
    by_id: BTreeMap<String, Estimate>,
}

impl Estimates {
    /// Reads every `new/benchmark.json` with its `new/estimates.json` under `dir`.
    pub(crate) fn load(dir: &Path) -> Result<Estimates, String> {
        let mut estimates = Estimates::default();
        // Criterion keeps earlier runs beside `new` (`base`, `change`); only `new` is this run.
        for file in walk::files_named(dir, "benchmark.json")? {
            let Some(new) = file.parent().filter(|parent| parent.ends_with("new")) else {
                continue;
            };
            let (id, estimate) = read_one(new)?;
            estimates.by_id.insert(id, estimate);
        }
        if estimates.by_id.is_empty() {
            return Err(format!(
                "no criterion results under {} (run the benchmarks first)",
                dir.display()
            ));
        }
        Ok(estimates)
    }

    /// Median nanoseconds per iteration of benchmark `id`.
    pub(crate) fn ns(&self, id: &str) -> Option<f64> {
        self.by_id.get(id).map(|e| e.median_ns)
    }

    /// Median nanoseconds per element of benchmark `id` (per iteration if it has no
    /// throughput).
    pub(crate) fn ns_per_element(&self, id: &str) -> Option<f64> {
        self.by_id
            .get(id)
            .map(|e| e.median_ns / e.elements.unwrap_or(1) as f64)
    }

    /// When the first and the last of the benchmarks whose id starts with `prefix` were saved:
    /// a section of the page can be re-run alone, whole or in part, so each says when it was
    /// measured.
    pub(crate) fn saved_span(&self, prefix: &str) -> Option<(SystemTime, SystemTime)> {
        let saved = || {
            self.by_id
                .iter()
                .filter(|(id, _)| id.starts_with(prefix))
                .filter_map(|(_, estimate)| estimate.saved)
        };
        Some((saved().min()?, saved().max()?))
    }

    /// Millions of elements per second of benchmark `id`.
    pub(crate) fn millions_per_second(&self, id: &str) -> Option<f64> {
        self.ns_per_element(id).map(|ns| 1e3 / ns)
    }
}

/// The id and estimate saved in one `new` directory.
fn read_one(new: &Path) -> Result<(String, Estimate), String> {
    let benchmark = read_json(new.join("benchmark.json"))?;
    let estimates = read_json(new.join("estimates.json"))?;
    let id = benchmark["full_id"]
        .as_str()
        .ok_or_else(|| format!("{}: no full_id", new.display()))?
        .to_owned();
    let median_ns = estimates["median"]["point_estimate"]
        .as_f64()
        .ok_or_else(|| format!("{}: no median", new.display()))?;
    let elements = benchmark["throughput"]["Elements"].as_u64();
    let saved = fs::metadata(new.join("estimates.json"))
        .and_then(|metadata| metadata.modified())
        .ok();
    Ok((
        id,
        Estimate {
            median_ns,
            elements,
            saved,
        },
    ))
}

fn read_json(path: PathBuf) -> Result<Value, String> {
    let text =
        fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A criterion-shaped directory with one benchmark, in a fresh temporary directory.
    fn fixture(name: &str, benchmark: &str, estimates: &str) -> PathBuf {
        let root =
            std::env::temp_dir().join(format!("bitforge-report-{name}-{}", std::process::id()));
        let new = root.join("group").join("bench").join("new");
        fs::create_dir_all(&new).unwrap();
        fs::write(new.join("benchmark.json"), benchmark).unwrap();
        fs::write(new.join("estimates.json"), estimates).unwrap();
        // A "base" copy criterion also keeps must not be read.
        let base = root.join("group").join("bench").join("base");
        fs::create_dir_all(&base).unwrap();
        fs::write(base.join("benchmark.json"), "not json").unwrap();
        root
    }

    #[test]
    fn reads_the_median_per_element() {
        let dir = fixture(
            "median",
            r#"{"full_id":"lookups/rook/throughput/pext","throughput":{"Elements":1000}}"#,
            r#"{"median":{"point_estimate":1500.0},"mean":{"point_estimate":9.0}}"#,
        );
        let estimates = Estimates::load(&dir).unwrap();
        assert_eq!(estimates.ns("lookups/rook/throughput/pext"), Some(1500.0));
        assert_eq!(
            estimates.ns_per_element("lookups/rook/throughput/pext"),
            Some(1.5)
        );
        let mnps = estimates
            .millions_per_second("lookups/rook/throughput/pext")
            .unwrap();
        assert!((mnps - 666.666).abs() < 0.01);
        assert_eq!(estimates.ns("lookups/rook/throughput/fancy"), None);
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_malformed_estimate_names_its_file() {
        let dir = fixture("broken", r#"{"full_id":"x"}"#, r#"{"mean":{}}"#);
        let error = Estimates::load(&dir).unwrap_err();
        assert!(error.contains("no median"), "{error}");
        assert!(error.contains("bench"), "{error}");
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn an_empty_directory_is_an_error() {
        let dir =
            std::env::temp_dir().join(format!("bitforge-report-empty-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        assert!(
            Estimates::load(&dir)
                .unwrap_err()
                .contains("run the benchmarks first")
        );
        fs::remove_dir_all(dir).unwrap();
    }
}
