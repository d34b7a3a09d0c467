//! `magic-search export`: the set and its attack table for other engines.

use std::path::PathBuf;

use clap::Args;
use magic_search::{Format, export};

use crate::Failure;
use crate::files::{Output, read_verified};

/// Write a verified set and its attack table as Rust, a C header, JSON or binary.
#[derive(Debug, Args)]
pub(crate) struct ExportArgs {
    /// The `.magics` file (verified before anything is written).
    file: PathBuf,

    /// Output format: rust, c, json or bin (little-endian bytes behind a versioned header; see
    /// README).
    #[arg(long)]
    format: Format,

    /// Write here instead of standard output.
    #[arg(long, short)]
    out: Option<PathBuf>,

    /// Overwrite --out if it exists.
    #[arg(long)]
    force: bool,
}

pub(crate) fn run(args: &ExportArgs) -> Result<(), Failure> {
    let output = Output {
        path: args.out.clone(),
        force: args.force,
    };
    output.check_writable()?;
    let (set, table) = read_verified(&args.file)?;
    let provenance = [format!(
        "bitforge magic set exported by magic-search from {}",
        args.file.display()
    )];
    output.write_bytes(&export(&set, &table, args.format, &provenance))
}
