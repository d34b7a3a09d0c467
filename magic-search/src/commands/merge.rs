//! `magic-search merge`: the chunks' state files of a hunt, a proof or a set search, combined
//! into the one result a single run would have given.

use std::path::PathBuf;
use std::time::Instant;

use bitforge_index::verify;
use clap::Args;
use magic_search::{FindState, HuntReport, ProofReport};

use crate::Failure;
use crate::commands::options::threads_or_all_cores;
use crate::commands::resumable::{header, read_text};
use crate::commands::{find, hunt, prove};
use crate::files::Output;

/// Combine the state files of every chunk of a hunt (`hunt --chunk`) or a proof (`prove
/// --chunk`) into one result: a proof when no chunk found a magic and the chunks cover the
/// whole period; or of every chunk of a set search (`find --chunk`) into the verified set.
#[derive(Debug, Args)]
pub(crate) struct MergeArgs {
    /// The chunks' state files (their --checkpoint files), in any order.
    #[arg(required = true)]
    files: Vec<PathBuf>,

    /// Write the result to this file: a hunt's as a hunt state file, a set search's as the
    /// set (`.magics`) [default: standard output].
    #[arg(long, short)]
    out: Option<PathBuf>,

    /// Overwrite --out if it exists.
    #[arg(long)]
    force: bool,

    /// For proofs: walk every chunk's roots again with independent code first, and refuse a
    /// certificate whose counts or digests that walk does not reproduce (exit 1).
    #[arg(long)]
    recheck: bool,

    /// For hunts and proofs: how many magics to list.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(0..=1_048_576))]
    keep: u32,
}

pub(crate) fn run(args: &MergeArgs) -> Result<(), Failure> {
    let output = Output {
        path: args.out.clone(),
        force: args.force,
    };
    if args.out.is_some() {
        output.check_writable()?;
    }
    let first = read_text(&args.files[0], "a state file")?;
    match header(&first) {
        FindState::HEADER => merge_sets(args, &output),
        ProofReport::HEADER => merge_proofs(args, &output),
        _ if args.recheck => Err(Failure::input(
            "--recheck is for proof files (`prove --checkpoint`)",
        )),
        _ => merge_hunts(args, &output),
    }
}

fn merge_proofs(args: &MergeArgs, output: &Output) -> Result<(), Failure> {
    let parts = args
        .files
        .iter()
        .map(|path| prove::read_state(path))
        .collect::<Result<Vec<_>, _>>()?;
    let merged = ProofReport::merge(&parts, args.keep as usize)
        .map_err(|error| Failure::input(format!("cannot merge: {error}")))?;
    if args.recheck {
        for (path, part) in args.files.iter().zip(&parts) {
            let started = Instant::now();
            let progress = prove::roots_bar(part.covered(), "roots rechecked");
            let rechecked =
                part.recheck_reporting(threads_or_all_cores(None), &|n| progress.inc(n));
            progress.finish_and_clear();
            rechecked.map_err(|error| {
                Failure::invalid(format!(
                    "{}: the certificate does not recheck: {error}",
                    path.display()
                ))
            })?;
            eprintln!(
                "rechecked: {} ({} roots, {:.2} s)",
                path.display(),
                part.covered(),
                started.elapsed().as_secs_f64()
            );
        }
    }
    out!("target: {}", merged.target);
    out!(
        "roots: {:#x}..{:#x} ({} roots, {} files)",
        merged.roots.start,
        merged.roots.end,
        merged.covered(),
        parts.len()
    );
    prove::print_result(&merged)?;
    if args.out.is_some() {
        output.write(&prove::state_text(&merged))?;
    }
    Ok(())
}

fn merge_hunts(args: &MergeArgs, output: &Output) -> Result<(), Failure> {
    let parts = args
        .files
        .iter()
        .map(|path| hunt::read_state(path))
        .collect::<Result<Vec<_>, _>>()?;
    let merged = HuntReport::merge(&parts, args.keep as usize)
        .map_err(|error| Failure::input(format!("cannot merge: {error}")))?;
    out!("target: {}", merged.target);
    out!(
        "range: {:#x}..{:#x} ({} candidates, {} files)",
        merged.range.start,
        merged.range.end,
        merged.covered(),
        parts.len()
    );
    hunt::print_result(&merged)?;
    if args.out.is_some() {
        output.write(&hunt::state_text(&merged))?;
    }
    Ok(())
}

fn merge_sets(args: &MergeArgs, output: &Output) -> Result<(), Failure> {
    let parts = args
        .files
        .iter()
        .map(|path| find::read_state(path))
        .collect::<Result<Vec<_>, _>>()?;
    let merged = FindState::merge(&parts)
        .map_err(|error| Failure::input(format!("cannot merge: {error}")))?;
    let set = merged.to_set().expect("a merge of every chunk is complete");
    let table = verify(&set)
        .map_err(|error| Failure::invalid(format!("the merged set does not verify: {error}")))?;
    find::write_set(&set, &table, output)?;
    find::print_summary(&set, &table, &merged);
    eprintln!("merged: {} chunk files", parts.len());
    if let Some(path) = &args.out {
        eprintln!("written: {}", path.display());
    }
    Ok(())
}
