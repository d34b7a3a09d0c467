//! `magic-search status`: the progress of many hunt or proof chunks at a glance.

use core::ops::Range;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;
use indicatif::HumanDuration;
use magic_search::{HuntReport, HuntStatus, ProofReport};

use crate::Failure;
use crate::commands::options::human;
use crate::commands::resumable::{header, read_text};
use crate::commands::{hunt, prove};

/// Sum up the state files of a hunt's or a proof's chunks (complete or still running):
/// candidates (a proof's roots) covered, gaps (chunks with no file yet), magics found, the rate
/// and the time left. Files of several targets are summed per target. A proof's roots vary in
/// size, so its time left is a rough guide (`prove --estimate` gives a better one).
#[derive(Debug, Args)]
pub(crate) struct StatusArgs {
    /// The chunks' hunt or proof state files (their --checkpoint files), in any order.
    #[arg(required = true)]
    files: Vec<PathBuf>,

    /// How many of the least covered incomplete files to name.
    #[arg(long, default_value_t = 5)]
    list: usize,
}

/// A chunk's file: a hunt's or a proof's.
#[derive(Clone)]
enum Chunk {
    Hunt(HuntReport),
    Proof(ProofReport),
}

impl Chunk {
    fn read(path: &Path) -> Result<Chunk, Failure> {
        let text = read_text(path, "a state file")?;
        if header(&text) == ProofReport::HEADER {
            prove::read_state(path).map(Chunk::Proof)
        } else {
            hunt::read_state(path).map(Chunk::Hunt)
        }
    }

    /// The group it is summed in: what it is a chunk of.
    fn group(&self) -> String {
        match self {
            Chunk::Hunt(report) => format!("hunt of {}", report.target),
            Chunk::Proof(report) => format!("proof of {}", report.target),
        }
    }

    fn complete(&self) -> bool {
        match self {
            Chunk::Hunt(report) => report.complete(),
            Chunk::Proof(report) => report.complete(),
        }
    }

    /// The range, and the covered share of it.
    fn progress(&self) -> (Range<u128>, f64) {
        let (range, covered) = match self {
            Chunk::Hunt(report) => (report.range.clone(), report.covered()),
            Chunk::Proof(report) => (
                u128::from(report.roots.start)..u128::from(report.roots.end),
                u128::from(report.covered()),
            ),
        };
        let length = range.end - range.start;
        let share = if length == 0 {
            1.0
        } else {
            covered as f64 / length as f64
        };
        (range, share)
    }
}

pub(crate) fn run(args: &StatusArgs) -> Result<(), Failure> {
    let mut by_group: BTreeMap<String, Vec<(PathBuf, Chunk)>> = BTreeMap::new();
    for path in &args.files {
        let chunk = Chunk::read(path)?;
        by_group
            .entry(chunk.group())
            .or_default()
            .push((path.clone(), chunk));
    }
    for (name, files) in &by_group {
        let chunks = files.iter().map(|(_, chunk)| chunk.clone());
        let status = match &files[0].1 {
            Chunk::Hunt(_) => HuntStatus::of(
                &chunks
                    .filter_map(|c| {
                        if let Chunk::Hunt(r) = c {
                            Some(r)
                        } else {
                            None
                        }
                    })
                    .collect::<Vec<_>>(),
            ),
            Chunk::Proof(_) => HuntStatus::of_proofs(
                &chunks
                    .filter_map(|c| {
                        if let Chunk::Proof(r) = c {
                            Some(r)
                        } else {
                            None
                        }
                    })
                    .collect::<Vec<_>>(),
            ),
        }
        .expect("grouped by kind and target");
        print_status(name, &status)?;
        let mut incomplete: Vec<(&PathBuf, Range<u128>, f64)> = files
            .iter()
            .filter(|(_, chunk)| !chunk.complete())
            .map(|(path, chunk)| {
                let (range, share) = chunk.progress();
                (path, range, share)
            })
            .collect();
        incomplete.sort_by(|a, b| a.2.total_cmp(&b.2));
        for (path, range, share) in incomplete.iter().take(args.list) {
            out!(
                "  incomplete: {} {:.1}% of {:#x}..{:#x}",
                path.display(),
                100.0 * share,
                range.start,
                range.end
            );
        }
        if incomplete.len() > args.list {
            out!("  ... and {} more incomplete", incomplete.len() - args.list);
        }
    }
    Ok(())
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
        "  covered: {:#x} of the files' {:#x} {} ({percent:.2}%)",
        status.covered,
        status.total,
        status.unit
    );
    if status.overlapping {
        out!("  overlap: some files' ranges overlap (two different splits? merge refuses them)");
    }
    let space = if status.unit == "roots" {
        "every root"
    } else {
        "the whole period"
    };
    if status.spans_the_period() {
        out!("  span: the files hold {space} without a gap");
    } else {
        out!(
            "  span: {:#x}..{:#x} of {space}, 0x0..{:#x}",
            status.span.start,
            status.span.end,
            status.whole
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
            // Hunts test hundreds of millions of candidates a second; proofs walk a few roots.
            let rate = if rate >= 1e6 {
                format!("{:.1} million", rate / 1e6)
            } else {
                format!("{rate:.2}")
            };
            out!(
                "  rate: {rate} {} per second per process ({} of work)",
                status.unit,
                HumanDuration(Duration::from_millis(status.elapsed_ms))
            );
            if status.left > 0 {
                out!(
                    "  left: {:#x} {}: {} in one process, {} with every incomplete file \
                     running at once",
                    status.left,
                    status.unit,
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
