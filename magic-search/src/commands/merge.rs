//! `magic-search merge`: the chunks' state files of a hunt, a proof or a set search, combined
//! into the one result a single run would have given.

use std::path::{Path, PathBuf};
use std::time::Duration;

use bitforge_index::verify;
use clap::Args;
use magic_search::{FindState, HuntReport, ProofReport};

use crate::Failure;
use crate::commands::options::threads_or_all_cores;
use crate::commands::resumable::{
    Checkpoint, header, interrupted, read_text, state_comments, stopped,
};
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

    /// Keep the recheck's progress in this directory, a file per proof file (its name and
    /// `.recheck`), and resume from it: a recheck stopped by Ctrl-C, SIGTERM or a reboot
    /// continues where it stopped. Each file is the replay's own record of the roots walked
    /// again, in the proof file format, and is taken on trust: keep it where only you write.
    #[arg(long, value_name = "DIR", requires = "recheck")]
    recheck_progress: Option<PathBuf>,

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
        let records = recheck_records(args)?;
        for ((path, part), record) in args.files.iter().zip(&parts).zip(&records) {
            recheck(path, part, record.as_deref())?;
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

/// Where each proof file's recheck keeps its progress: none, or with --recheck-progress the
/// directory's file named after it.
fn recheck_records(args: &MergeArgs) -> Result<Vec<Option<PathBuf>>, Failure> {
    let Some(dir) = &args.recheck_progress else {
        return Ok(vec![None; args.files.len()]);
    };
    if !dir.is_dir() {
        return Err(Failure::input(format!(
            "--recheck-progress {}: not a directory",
            dir.display()
        )));
    }
    let mut records = Vec::new();
    for path in &args.files {
        let name = path.file_name().unwrap_or(path.as_os_str());
        let record = dir.join(format!("{}.recheck", name.to_string_lossy()));
        if records.contains(&record) {
            return Err(Failure::input(format!(
                "two proof files are named {}: their recheck progress would share {}",
                name.to_string_lossy(),
                record.display()
            )));
        }
        records.push(record);
    }
    Ok(records.into_iter().map(Some).collect())
}

/// Rechecks one proof file, resuming from and saving to `record` if given.
fn recheck(path: &Path, part: &ProofReport, record: Option<&Path>) -> Result<(), Failure> {
    let start = match record {
        Some(file) if file.exists() => {
            let saved = prove::read_state(file)?;
            let fresh = part.recheck_start();
            if (saved.target, &saved.roots) != (fresh.target, &fresh.roots) {
                return Err(Failure::input(format!(
                    "{} is the recheck progress of {} over the roots {:#x}..{:#x}, not of {}: \
                     move it away",
                    file.display(),
                    saved.target,
                    saved.roots.start,
                    saved.roots.end,
                    path.display()
                )));
            }
            eprintln!(
                "resumed: {}: {} of {} roots rechecked before",
                path.display(),
                saved.covered(),
                part.covered()
            );
            saved
        }
        _ => part.recheck_start(),
    };
    let checkpoint = record.map(|file| Checkpoint::new(file, RECHECK_SAVED_EVERY));
    let record_text =
        |replayed: &ProofReport| replayed.to_text(&state_comments("recheck progress"));
    let progress = prove::roots_bar(part.covered(), "roots rechecked");
    progress.set_position(start.covered());
    progress.reset_eta();
    let save = |replayed: &ProofReport| {
        if let Some(file) = &checkpoint {
            file.save(|| record_text(replayed), &progress);
        }
    };
    let replayed = part.recheck_from(
        start,
        threads_or_all_cores(None),
        &|n| progress.inc(n),
        &save,
        interrupted(),
    );
    progress.finish_and_clear();
    let replayed = replayed.map_err(|error| {
        Failure::invalid(format!(
            "{}: the certificate does not recheck: {error}",
            path.display()
        ))
    })?;
    if let Some(file) = &checkpoint {
        file.write_now(&record_text(&replayed))?;
    }
    if !replayed.complete() {
        return Err(match &checkpoint {
            Some(file) => stopped(Some(file.path())),
            None => Failure::interrupted(
                "stopped: nothing was saved (give --recheck-progress DIR to keep the recheck's \
                 progress)",
            ),
        });
    }
    eprintln!(
        "rechecked: {} ({} roots, {:.2} s)",
        path.display(),
        part.covered(),
        replayed.elapsed_ms as f64 / 1000.0
    );
    Ok(())
}

/// How often a recheck's progress is saved.
const RECHECK_SAVED_EVERY: Duration = Duration::from_secs(30);

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
