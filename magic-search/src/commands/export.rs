//! `magic-search export`: a set and its attack table, or the PEXT tables, for other engines.

use std::path::PathBuf;

use clap::Args;
use magic_search::{ExportOptions, Format, Prefix, export, export_pext};

use crate::Failure;
use crate::files::{Output, read_verified};

/// Write a verified set and its attack table as Rust, a C header, JSON or binary; or, with
/// --pext, the dense PEXT tables as a C header or JSON.
///
/// A C header declares the tables and defines them in the one source file that defines
/// PREFIX_IMPLEMENTATION before including it (see README).
#[derive(Debug, Args)]
pub(crate) struct ExportArgs {
    /// The `.magics` file or binary export (verified before anything is written).
    #[arg(required_unless_present = "pext", conflicts_with = "pext")]
    file: Option<PathBuf>,

    /// Export the dense PEXT tables (u64 attacks and u16 for PDEP) instead of a magic set.
    #[arg(long)]
    pext: bool,

    /// Output format: rust, c, json or bin (little-endian bytes behind a versioned header; see
    /// README). The PEXT tables: c or json.
    #[arg(long)]
    format: Format,

    /// What starts every C identifier (and, in capitals, every macro and the include guard),
    /// so that several exports live in one program. [default: bitforge; bitforge_pext with
    /// --pext]
    #[arg(long)]
    prefix: Option<Prefix>,

    /// Write here instead of standard output.
    #[arg(long, short)]
    out: Option<PathBuf>,

    /// Overwrite --out if it exists.
    #[arg(long)]
    force: bool,
}

pub(crate) fn run(args: &ExportArgs) -> Result<(), Failure> {
    if args.format != Format::C && args.prefix.is_some() {
        return Err(Failure::input(format!(
            "--prefix names the C export's identifiers; the {} export has no global names",
            args.format
        )));
    }
    let output = Output {
        path: args.out.clone(),
        force: args.force,
    };
    output.check_writable()?;
    let default = if args.pext {
        Prefix::DEFAULT_PEXT
    } else {
        Prefix::DEFAULT
    };
    let mut options = ExportOptions {
        provenance: Vec::new(),
        prefix: args.prefix.clone().unwrap_or_else(|| {
            default
                .parse()
                .expect("the default prefixes are well-formed")
        }),
    };
    let bytes = match &args.file {
        None => {
            options.provenance = vec!["bitforge PEXT tables exported by magic-search".into()];
            export_pext(args.format, &options).map_err(Failure::input)?
        }
        Some(file) => {
            let (set, table) = read_verified(file)?;
            // The file's name only: the same set exported in two checkouts gives one output.
            let name = file
                .file_name()
                .unwrap_or(file.as_os_str())
                .to_string_lossy();
            options.provenance = vec![format!(
                "bitforge magic set exported by magic-search from {name}"
            )];
            export(&set, &table, args.format, &options)
        }
    };
    output.write_bytes(&bytes)
}
