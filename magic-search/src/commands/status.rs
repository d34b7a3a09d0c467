//! `magic-search status`: the progress of many hunt chunks at a glance.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use indicatif::HumanDuration;
use magic_search::{HuntReport, HuntStatus};

use crate::Failure;
use crate::commands::hunt;

/// Sum up the state files of a hunt's chunks (complete or still running): candidates covered,
/// gaps (chunks with no file yet), magics found, the rate and the time left. Files of several
/// targets are summed per target.
#[derive(Debug, Args)]
pub(crate) struct StatusArgs {
    /// The chunks' hunt state files (their --checkpoint files), in any order.
    #[arg(required = true)]
    files: Vec<PathBuf>,

    /// How many of the least covered incomplete files to name.
    #[arg(long, default_value_t = 5)]
    list: usize,
}

pub(crate) fn run(args: &StatusArgs) -> Result<(), Failure> {
    let mut by_target: BTreeMap<String, Vec<(PathBuf, HuntReport)>> = BTreeMap::new();
    for path in &args.files {
        let report = hunt::read_state(path)?;
        by_target
            .entry(report.target.to_string())
            .or_default()
            .push((path.clone(), report));
    }
    for (name, files) in &by_target {
        let reports: Vec<HuntReport> = files.iter().map(|(_, report)| report.clone()).collect();
        let status = HuntStatus::of(&reports).expect("grouped by target");
        print_status(name, &status)?;
        let mut incomplete: Vec<&(PathBuf, HuntReport)> =
            files.iter().filter(|(_, r)| !r.complete()).collect();
        incomplete.sort_by(|a, b| share(&a.1).total_cmp(&share(&b.1)));
        for (path, report) in incomplete.iter().take(args.list) {
            out!(
                "  incomplete: {} {:.1}% of {:#x}..{:#x}",
                path.display(),
                100.0 * share(report),
                report.range.start,
                report.range.end
            );
        }
        if incomplete.len() > args.list {
            out!("  ... and {} more incomplete", incomplete.len() - args.list);
        }
    }
    Ok(())
}

/// The covered share of a file's range.
fn share(report: &HuntReport) -> f64 {
    let length = report.range.end - report.range.start;
    if length == 0 {
        1.0
    } else {
        report.covered() as f64 / length as f64
    }
}

fn print_status(name: &str, status: &HuntStatus) -> Result<(), Failure> {
    out!(
        "{name}: {} files, {} complete",
        status.files,
        status.complete
    );
    let percent = if status.total == 0 {
        100.0
    } else {
        100.0 * status.covered as f64 / status.total as f64
    };
    out!(
        "  covered: {:#x} of the files' {:#x} candidates ({percent:.2}%)",
        status.covered,
        status.total
    );
    if status.overlapping {
        out!("  overlap: some files' ranges overlap (two different splits? merge refuses them)");
    }
    if status.spans_the_period() {
        out!("  span: the files hold the whole period without a gap");
    } else {
        out!(
            "  span: {:#x}..{:#x} of the period 0x0..{:#x}",
            status.span.start,
            status.span.end,
            status.target.period()
        );
    }
    if !status.gaps.is_empty() {
        let shown: Vec<String> = status
            .gaps
            .iter()
            .take(3)
            .map(|gap| format!("{:#x}..{:#x}", gap.start, gap.end))
            .collect();
        let more = status.gaps.len().saturating_sub(3);
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        out!("  gaps: in no file: {}{more}", shown.join(", "));
    }
    match &status.best {
        Some(best) => out!(
            "  found: {} magics; the fewest slots: {:#018x} (indices {}..={})",
            status.found_count,
            best.magic,
            best.lowest,
            best.highest
        ),
        None => out!("  found: no magic in the covered part"),
    }
    match (status.rate(), status.seconds_left()) {
        (Some(rate), Some((one, at_once))) => {
            out!(
                "  rate: {:.1} million candidates per second per process ({} of hunting)",
                rate / 1e6,
                HumanDuration(Duration::from_millis(status.elapsed_ms))
            );
            if status.left > 0 {
                out!(
                    "  left: {:#x} candidates: {} in one process, {} with every incomplete file \
                     hunting at once",
                    status.left,
                    human(one),
                    human(at_once)
                );
            }
        }
        _ => out!(
            "  rate: unknown (no time recorded: nothing tested yet, or files written before \
             magic-search kept the time)"
        ),
    }
    Ok(())
}

/// A duration for people, past what `Duration` holds (a 2^63 period at a billion a second is
/// centuries).
fn human(seconds: f64) -> String {
    const YEAR: f64 = 365.25 * 24.0 * 3600.0;
    if seconds >= YEAR {
        format!("{:.1} years", seconds / YEAR)
    } else if seconds < 1.0 {
        "under a second".to_owned()
    } else {
        HumanDuration(Duration::from_secs_f64(seconds.max(0.0))).to_string()
    }
}
