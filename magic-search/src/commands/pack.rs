//! `magic-search pack`: overlap the squares' slices into a smaller table.

use std::path::PathBuf;

use clap::Args;
use magic_search::pack;

use crate::Failure;
use crate::files::{Output, command_line, kib, read_set};

/// Overlap the squares' slices of a set (fixed or black, or any verified set) into one smaller
/// table and write the set with the new offsets.
///
/// First-fit, largest slice first, then --tries perturbed orders (a heuristic: the packing
/// problem is NP-complete). With --post-mask the result is a combined table: lookups AND what
/// they read with the square's empty-board attacks, so rook and bishop slices share slots.
#[derive(Debug, Args)]
pub(crate) struct PackArgs {
    /// The `.magics` file to pack.
    file: PathBuf,

    /// Perturbed placement orders to try after the largest-first one.
    #[arg(long, default_value_t = 16)]
    tries: u32,

    /// Make the set post-masked (`post-mask yes`): each lookup ANDs the table entry with the
    /// square's empty-board attacks, one instruction more, and slices whose rays differ may
    /// share slots. A set that already is stays so.
    #[arg(long)]
    post_mask: bool,

    /// Seed of the perturbations.
    #[arg(long, default_value_t = 1)]
    seed: u64,

    /// Write the packed set here instead of standard output.
    #[arg(long, short)]
    out: Option<PathBuf>,

    /// Overwrite --out if it exists.
    #[arg(long)]
    force: bool,
}

pub(crate) fn run(args: &PackArgs) -> Result<(), Failure> {
    let output = Output {
        path: args.out.clone(),
        force: args.force,
    };
    output.check_writable()?;
    let mut set = read_set(&args.file)?;
    set.post_masked |= args.post_mask;
    let packed = pack(&set, args.tries, args.seed)
        .map_err(|error| Failure::invalid(format!("{}: {error}", args.file.display())))?;
    let comments = [
        "bitforge magic set, packed by magic-search".to_owned(),
        format!("command: {}", command_line()),
        format!(
            "table entries: {} (before packing: {})",
            packed.entries, packed.entries_before
        ),
    ];
    output.write(&packed.set.to_text(&comments))?;
    let post_mask = if packed.set.post_masked {
        ", post-masked (one combined table)"
    } else {
        ""
    };
    eprintln!("scheme: {}{post_mask}", packed.set.scheme);
    eprintln!(
        "table entries: {} ({:.1} KiB), from {} ({:.1} KiB)",
        packed.entries,
        kib(packed.entries),
        packed.entries_before,
        kib(packed.entries_before)
    );
    Ok(())
}
