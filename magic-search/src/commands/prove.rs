//! `magic-search prove`: whether any magic with so many bits exists for one square, decided by
//! pruning whole subtrees of candidates; resumable, chunked, with a certificate.

use core::ops::Range;
use std::path::Path;
use std::time::{Duration, Instant};

use bitforge_index::geometry::square_name;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use magic_search::{ProofReport, Target, estimate_tree, prove};

use crate::Failure;
use crate::commands::hunt::{chunk_of, parse_range, print_magics};
use crate::commands::options::{human, parse_duration, threads_or_all_cores};
use crate::commands::resumable::{
    WorkArgs, check_kept, conclude, interrupted, read_text, state_comments,
};
use crate::commands::square::TargetArgs;

/// Decide whether a magic with --bits index bits exists for one square, by fixing a magic's
/// low bits one relevant square at a time and dropping every residue whose occupancies already
/// collide (with all the candidates that end with it).
///
/// Covers every candidate of the period, as a `hunt` of it does (no magic found means none
/// exists; the same magics when some exist), in a fraction of the time on most squares: rook
/// f8 at 10 bits in minutes instead of weeks. Not on a rook's ranks 1 and 2, where the tree
/// barely prunes: --estimate says how long a proof would take before trying. The state file
/// (--checkpoint) is a certificate: per level of the tree, the nodes tested, those that passed
/// and a digest of which; `merge --recheck` walks its roots again with independent code and
/// must find the same. The roots (the residues of the first level that has 2^10 of them)
/// split into --chunk parts for a batch scheduler. Fancy and fixed magics only (a black key has bit 0 set).
#[derive(Debug, Args)]
pub(crate) struct ProveArgs {
    #[command(flatten)]
    target: TargetArgs,

    /// Roots START..END (END excluded; 0x hex, 2^N or decimal) [default: every root].
    #[arg(long, value_parser = parse_range)]
    roots: Option<Range<u128>>,

    #[command(flatten)]
    work: WorkArgs,

    /// Threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,

    /// Do not prove: estimate the tree's size from this many random paths (Knuth's estimator;
    /// each path costs a few microseconds), and the core time a proof would take from the
    /// proof's walk timed on random roots (--estimate-walk).
    #[arg(long, value_name = "PROBES", value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    estimate: Option<u64>,

    /// How long --estimate times the proof's walk, such as `3s` or `1m`: longer for a steadier
    /// core time on trees whose roots differ much.
    #[arg(long, default_value = "3s", value_parser = parse_duration)]
    estimate_walk: Duration,

    /// The seed of --estimate's paths.
    #[arg(long, default_value_t = 1)]
    seed: u64,

    /// How many magics to list (the smallest found); the one with the fewest slots is always
    /// listed.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(0..=1_048_576))]
    keep: u32,
}

/// Reads a proof state file, checking every magic it lists.
pub(crate) fn read_state(path: &Path) -> Result<ProofReport, Failure> {
    let text = read_text(path, "a proof state file")?;
    let report = ProofReport::parse(&text)
        .map_err(|error| Failure::input(format!("{}: {error}", path.display())))?;
    for found in report.tally.best.iter().chain(&report.tally.found) {
        check_kept(path, report.target, found)?;
    }
    Ok(report)
}

/// The file's text for `report`.
pub(crate) fn state_text(report: &ProofReport) -> String {
    report.to_text(&state_comments("proof state"))
}

fn prove_error(error: impl std::fmt::Display) -> Failure {
    Failure::input(error.to_string())
}

pub(crate) fn run(args: &ProveArgs) -> Result<(), Failure> {
    let target = args.target.target()?;
    let root_count = ProofReport::root_count(target).map_err(prove_error)?;
    let roots = args.roots.clone().unwrap_or(0..u128::from(root_count));
    if roots.start >= u128::from(root_count) {
        return Err(Failure::input(format!(
            "the roots start at {:#x}, past the last root {:#x} of {target}",
            roots.start,
            root_count - 1
        )));
    }
    let roots = roots.start..roots.end.min(u128::from(root_count));
    let chunk = chunk_of(&roots, args.work.chunk);
    // Inside the root count, which is at most 2^63.
    let chunk = chunk.start as u64..chunk.end as u64;
    let threads = threads_or_all_cores(args.threads);
    let keep = args.keep as usize;

    if let Some(probes) = args.estimate {
        return print_estimate(target, probes, args.seed, args.estimate_walk);
    }
    let fresh = ProofReport::new(target, chunk.clone()).map_err(prove_error)?;
    let start = match &args.work.checkpoint {
        Some(path) if path.exists() => {
            let saved = read_state(path)?;
            if saved.target != fresh.target || saved.roots != fresh.roots {
                return Err(Failure::input(format!(
                    "{} holds a proof of {} over the roots {:#x}..{:#x}, not this one ({} over \
                     {:#x}..{:#x}): use another checkpoint file",
                    path.display(),
                    saved.target,
                    saved.roots.start,
                    saved.roots.end,
                    target,
                    chunk.start,
                    chunk.end
                )));
            }
            let listed = saved.tally.found.len();
            if keep > listed && saved.tally.found_count > listed as u64 {
                return Err(Failure::input(format!(
                    "{} lists {listed} of the {} magics found: resume with --keep {listed} or \
                     less",
                    path.display(),
                    saved.tally.found_count
                )));
            }
            saved
        }
        _ => fresh,
    };
    let checkpoint = args.work.checkpoint();
    if let Some(file) = &checkpoint {
        file.write_now(&state_text(&start))?;
    }

    let shape = ProofReport::shape(target).map_err(prove_error)?;
    let root_level = ProofReport::root_level(target).map_err(prove_error)?;
    out!("target: {target}");
    out!(
        "tree: {} levels, squares {}; {root_count:#x} roots (level {root_level}'s residues \
         modulo 2^{}), the last level fixing {} bits (the period)",
        shape.squares.len(),
        shape
            .squares
            .iter()
            .map(|&s| square_name(s))
            .collect::<Vec<_>>()
            .join(" "),
        shape.residue_bits[root_level],
        shape.residue_bits[shape.residue_bits.len() - 1]
    );
    out!(
        "roots: {:#x}..{:#x}, chunk {}/{}: {:#x}..{:#x} ({} roots)",
        roots.start,
        roots.end,
        args.work.chunk.0,
        args.work.chunk.1,
        chunk.start,
        chunk.end,
        chunk.end - chunk.start
    );
    if start.covered() > 0 {
        out!(
            "resumed: {} roots already covered, up to {:#x}",
            start.covered(),
            start.done
        );
    }

    let progress = roots_bar(chunk.end - chunk.start, "roots");
    progress.set_position(start.covered());
    progress.reset_eta();
    let (before, candidates_before) = (start.covered(), start.candidates_covered());
    let started = Instant::now();
    let save = |report: &ProofReport| {
        if let Some(file) = &checkpoint {
            file.save(|| state_text(report), &progress);
        }
    };
    let stop = interrupted();
    let report =
        prove(start, threads, keep, &|n| progress.inc(n), &save, stop).map_err(prove_error)?;
    let seconds = started.elapsed().as_secs_f64();
    progress.finish_and_clear();

    let candidates = report.candidates_covered() - candidates_before;
    out!(
        "walked: {} roots in {seconds:.2} s, {threads} threads: the {candidates} candidates \
         they stand for at {:.3e} a second",
        report.covered() - before,
        candidates as f64 / seconds.max(1e-9)
    );
    let so_far = || {
        out!(
            "covered so far: roots {:#x}..{:#x} of {:#x}..{:#x}",
            report.roots.start,
            report.done,
            report.roots.start,
            report.roots.end
        );
        Ok(())
    };
    conclude(
        checkpoint.as_ref(),
        &state_text(&report),
        report.complete(),
        so_far,
        || print_result(&report),
    )
}

/// Estimates `target`'s tree and prints it, with the core time a proof would take.
fn print_estimate(
    target: Target,
    probes: u64,
    seed: u64,
    walk_for: Duration,
) -> Result<(), Failure> {
    out!("target: {target}");
    let progress = ProgressBar::new(probes).with_style(
        ProgressStyle::with_template(
            "{spinner} {elapsed_precise} [{bar:40}] {pos}/{len} probes {msg}",
        )
        .expect("the template is valid")
        .progress_chars("=> "),
    );
    let started = Instant::now();
    let estimate = estimate_tree(target, probes, seed, walk_for, &|n| {
        progress.inc(n);
        if progress.position() == probes {
            progress.set_message("timing the walk");
        }
    })
    .map_err(prove_error)?;
    progress.finish_and_clear();
    let walk = estimate.walk;
    out!(
        "estimate: {probes} random paths (seed {seed}) and the walk timed, in {:.2} s",
        started.elapsed().as_secs_f64()
    );
    out!("level   tested nodes (estimated)");
    for (level, nodes) in estimate.tested.iter().enumerate() {
        out!("{level:>5} {nodes:>26.4e}");
    }
    out!(
        "walk: {} random roots, {} nodes in {:.2} s: {:.2} ns a node",
        walk.roots,
        walk.nodes,
        walk.seconds,
        walk.ns_per_node()
    );
    let seconds = estimate.core_seconds();
    let threads = threads_or_all_cores(None);
    out!(
        "nodes: {:.4e}; a proof would take about {seconds:.3e} core seconds: {} on one core, \
         {} on the {threads} threads here",
        estimate.nodes(),
        human(seconds),
        human(seconds / threads as f64)
    );
    Ok(())
}

/// Prints the certificate's levels and what a finished proof (or merge) found or proved.
pub(crate) fn print_result(report: &ProofReport) -> Result<(), Failure> {
    let target: Target = report.target;
    out!("level   tested nodes   passed");
    for (level, count) in report.tally.levels.iter().enumerate() {
        out!("{level:>5} {:>14} {:>8}", count.tested, count.passed);
    }
    let nodes: u64 = report.tally.levels.iter().map(|l| l.tested).sum();
    out!(
        "nodes: {nodes} for {} candidates ({:.0} candidates a node)",
        report.candidates_covered(),
        report.candidates_covered() as f64 / nodes.max(1) as f64
    );
    if report.tally.found_count == 0 {
        let scope = if report.is_whole_space() {
            format!(
                "no {}-bit {} magic exists for {} {} (every root of the tree)",
                target.bits(),
                target.scheme(),
                target.kind(),
                square_name(target.square())
            )
        } else {
            format!(
                "no magic under the roots {:#x}..{:#x}",
                report.roots.start, report.roots.end
            )
        };
        out!("result: {scope}");
        return Ok(());
    }
    let tally = &report.tally;
    print_magics(tally.found_count, &tally.found, tally.best)
}

/// A progress bar over `len` roots of a proof, `what` naming them ("roots", "roots
/// rechecked").
pub(crate) fn roots_bar(len: u64, what: &str) -> ProgressBar {
    ProgressBar::new(len).with_style(
        ProgressStyle::with_template(&format!(
            "{{spinner}} {{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {what}, about {{eta}} left"
        ))
        .expect("the template is valid")
        .progress_chars("=> "),
    )
}
