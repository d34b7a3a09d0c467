//! `magic-search verify`: re-check a set against the reference walker.

use std::path::PathBuf;

use clap::Args;
use magic_search::index_spans;

use crate::Failure;
use crate::files::{kib, read_verified};

/// Re-check every magic of a `.magics` file against the reference ray walker.
///
/// Prints the scheme, the table size, the largest slot used, the slots used and the squares'
/// index spans by kind (first used slot to last: what packing starts from); for a bad set, the
/// square and the two occupancies that collide, and exits with 1.
#[derive(Debug, Args)]
pub(crate) struct VerifyArgs {
    /// The `.magics` file.
    file: PathBuf,
}

pub(crate) fn run(args: &VerifyArgs) -> Result<(), Failure> {
    let (set, table) = read_verified(&args.file)?;
    out!("scheme: {}", set.scheme);
    out!("squares: 128 (rook 64, bishop 64)");
    out!("table entries: {}", table.entries());
    out!("largest index: {}", table.entries() - 1);
    out!("used slots: {}", table.used_slots);
    let spans = index_spans(&set);
    out!("index spans: rook {}, bishop {}", spans.rook, spans.bishop);
    out!("table size: {:.1} KiB", kib(table.entries()));
    out!("ok: every occupancy of every square gives the reference attacks");
    Ok(())
}
