//! Reading iai-callgrind's saved summaries (`summary.json`, written with `--save-summary=json`):
//! Callgrind's event counts per benchmark.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use serde_json::Value;

use crate::walk;

/// Event counts by benchmark (`function/id`, for example `rook_lookups/pext`) and event name
/// (`Ir`, `L1hits`, `LLhits`, `RamHits`, `EstimatedCycles`).
#[derive(Debug, Default)]
pub(crate) struct Summaries {
    by_bench: BTreeMap<String, BTreeMap<String, u64>>,
}

impl Summaries {
    /// Reads every `summary.json` under `dir`.
    pub(crate) fn load(dir: &Path) -> Result<Summaries, String> {
        let mut summaries = Summaries::default();
        for path in walk::files_named(dir, "summary.json")? {
            let text = fs::read_to_string(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let json: Value =
                serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            if let Some((bench, counts)) = counts(&json) {
                summaries.by_bench.insert(bench, counts);
            }
        }
        Ok(summaries)
    }

    /// Whether anything was read.
    pub(crate) fn is_empty(&self) -> bool {
        self.by_bench.is_empty()
    }

    /// Event `event` of benchmark `bench`.
    pub(crate) fn count(&self, bench: &str, event: &str) -> Option<u64> {
        self.by_bench.get(bench)?.get(event).copied()
    }
}

/// The benchmark's name and its Callgrind totals, from one summary.
fn counts(json: &Value) -> Option<(String, BTreeMap<String, u64>)> {
    let function = json["function_name"].as_str()?;
    let bench = match json["id"].as_str() {
        Some(id) => format!("{function}/{id}"),
        None => function.to_owned(),
    };
    let profile = json["profiles"]
        .as_array()?
        .iter()
        .find(|profile| profile["tool"] == "Callgrind")?;
    let events = profile["summaries"]["total"]["summary"]["Callgrind"].as_object()?;
    let counts = events
        .iter()
        .filter_map(|(event, diff)| Some((event.clone(), new_value(&diff["metrics"])?)))
        .collect();
    Some((bench, counts))
}

/// The new run's value of a metric diff (`{"Left": {"Int": n}}` or `{"Both": [new, old]}`).
fn new_value(metrics: &Value) -> Option<u64> {
    let new = metrics
        .get("Left")
        .or_else(|| metrics.get("Both").and_then(|both| both.get(0)))?;
    new.get("Int")
        .and_then(Value::as_u64)
        .or_else(|| new.as_u64())
        .or_else(|| new.get("Float").and_then(Value::as_f64).map(|f| f as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_the_new_runs_callgrind_counts() {
        let json: Value = serde_json::from_str(
            r#"{"function_name":"rook_lookups","id":"pext","profiles":[
                {"tool":"DHAT","summaries":{"total":{"summary":{}}}},
                {"tool":"Callgrind","summaries":{"total":{"summary":{"Callgrind":{
                    "Ir":{"metrics":{"Both":[{"Int":41419},{"Int":40000}]}},
                    "RamHits":{"metrics":{"Left":{"Int":2558}}},
                    "L1HitRate":{"metrics":{"Left":{"Float":99.5}}}}}}}}]}"#,
        )
        .unwrap();
        let (bench, counts) = counts(&json).unwrap();
        assert_eq!(bench, "rook_lookups/pext");
        assert_eq!(counts["Ir"], 41419);
        assert_eq!(counts["RamHits"], 2558);
        assert_eq!(counts["L1HitRate"], 99);
    }
}
