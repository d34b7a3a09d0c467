//! `magic-search hunt`: every candidate of a range for one square, resumable.

use core::ops::Range;
use std::path::Path;
use std::time::Instant;

use bitforge_index::geometry::square_name;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use magic_search::{Found, HuntReport, hunt};

use crate::Failure;
use crate::commands::options::threads_or_all_cores;
use crate::commands::resumable::{
    WorkArgs, check_kept, conclude, interrupted, read_text, state_comments,
};
use crate::commands::square::{TargetArgs, parse_number};

/// Try every candidate magic of a range for one square: the magics it holds, or a proof that
/// it holds none.
///
/// Candidates at or past the square's period (2^(64 - t), t the lowest relevant square for
/// fancy and fixed magics) act like their remainder, so the default range, the whole period,
/// covers every magic there is: finding none proves that no magic with that many bits exists.
/// --chunk splits the range for several processes or machines (a batch scheduler's array
/// index); --checkpoint keeps the progress in a file, so that a stopped hunt resumes where it
/// stopped; `merge` combines the chunks' files into one result.
#[derive(Debug, Args)]
pub(crate) struct HuntArgs {
    #[command(flatten)]
    target: TargetArgs,

    /// Candidates START..END (END excluded; 0x hex, 2^N or decimal) [default: the whole period].
    #[arg(long, value_parser = parse_range)]
    range: Option<Range<u128>>,

    #[command(flatten)]
    work: WorkArgs,

    /// Threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,

    /// How many magics to list (the smallest found); the one with the fewest slots is always
    /// listed.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(0..=1_048_576))]
    keep: u32,
}

pub(crate) fn parse_range(text: &str) -> Result<Range<u128>, String> {
    let (start, end) = text
        .split_once("..")
        .ok_or_else(|| format!("'{text}' is not a range START..END"))?;
    let (start, end) = (parse_number(start)?, parse_number(end)?);
    if start >= end {
        return Err(format!("the range '{text}' is empty"));
    }
    Ok(start..end)
}

/// Part `index` of `count` equal parts of `range`.
pub(crate) fn chunk_of(range: &Range<u128>, (index, count): (u32, u32)) -> Range<u128> {
    let length = range.end - range.start;
    let at = |i: u32| range.start + length * u128::from(i) / u128::from(count);
    at(index)..at(index + 1)
}

/// Reads a hunt state file, checking every magic it lists.
pub(crate) fn read_state(path: &Path) -> Result<HuntReport, Failure> {
    let text = read_text(path, "a hunt state file")?;
    let report = HuntReport::parse(&text)
        .map_err(|error| Failure::input(format!("{}: {error}", path.display())))?;
    for found in report.best.iter().chain(&report.found) {
        check_kept(path, report.target, found)?;
    }
    Ok(report)
}

/// The file's text for `report`.
pub(crate) fn state_text(report: &HuntReport) -> String {
    report.to_text(&state_comments("hunt state"))
}

pub(crate) fn run(args: &HuntArgs) -> Result<(), Failure> {
    let target = args.target.target()?;
    let period = target.period();
    let range = args.range.clone().unwrap_or(target.space());
    if range.start >= period {
        return Err(Failure::input(format!(
            "the range starts at {:#x}, past the period {period:#x} of {target}: candidates \
             from there on act like their remainder",
            range.start
        )));
    }
    let range = range.start..range.end.min(period);
    let chunk = chunk_of(&range, args.work.chunk);
    let threads = threads_or_all_cores(args.threads);
    let keep = args.keep as usize;

    let fresh = HuntReport::new(target, chunk.clone());
    let start = match &args.work.checkpoint {
        Some(path) if path.exists() => {
            let saved = read_state(path)?;
            if saved.target != fresh.target || saved.range != fresh.range {
                return Err(Failure::input(format!(
                    "{} holds a hunt of {} over {:#x}..{:#x}, not this one ({} over \
                     {:#x}..{:#x}): use another checkpoint file",
                    path.display(),
                    saved.target,
                    saved.range.start,
                    saved.range.end,
                    target,
                    chunk.start,
                    chunk.end
                )));
            }
            // The list holds the smallest magics covered so far, as many as the run that
            // wrote it kept: a longer list from here on would miss those it left out.
            if keep > saved.found.len() && saved.found_count > saved.found.len() as u64 {
                return Err(Failure::input(format!(
                    "{} lists {} of the {} magics found, as --keep {} asked: resume with \
                     --keep {} or less",
                    path.display(),
                    saved.found.len(),
                    saved.found_count,
                    saved.found.len(),
                    saved.found.len()
                )));
            }
            saved
        }
        _ => fresh,
    };
    let checkpoint = args.work.checkpoint();
    // Written at once, so that a checkpoint that cannot be written stops the hunt before any
    // work is done.
    if let Some(file) = &checkpoint {
        file.write_now(&state_text(&start))?;
    }

    out!("target: {target}");
    out!(
        "period: {period:#x} (2^{}): every candidate acts like one below it",
        period.trailing_zeros()
    );
    out!(
        "range: {:#x}..{:#x}, chunk {}/{}: {:#x}..{:#x} ({} candidates)",
        range.start,
        range.end,
        args.work.chunk.0,
        args.work.chunk.1,
        chunk.start,
        chunk.end,
        chunk.end - chunk.start
    );
    if start.covered() > 0 {
        out!(
            "resumed: {} candidates already covered, up to {:#x}",
            start.covered(),
            start.done
        );
    }

    let total = u64::try_from(chunk.end - chunk.start).unwrap_or(u64::MAX);
    let progress = ProgressBar::new(total).with_style(
        ProgressStyle::with_template(
            "{spinner} {elapsed_precise} [{bar:40}] {percent}% {per_sec}, about {eta} left",
        )
        .expect("the template is valid")
        .progress_chars("=> "),
    );
    progress.set_position(u64::try_from(start.covered()).unwrap_or(u64::MAX));
    progress.reset_eta();
    let covered_before = start.covered();
    let started = Instant::now();
    let save = |report: &HuntReport| {
        if let Some(file) = &checkpoint {
            file.save(|| state_text(report), &progress);
        }
    };
    let stop = interrupted();
    let report = hunt(start, threads, keep, &|n| progress.inc(n), &save, stop);
    let seconds = started.elapsed().as_secs_f64();
    progress.finish_and_clear();

    let covered_now = report.covered() - covered_before;
    out!(
        "covered: {covered_now} candidates in {seconds:.2} s ({:.1} million per second, \
         {threads} threads)",
        covered_now as f64 / seconds.max(1e-9) / 1e6
    );
    let so_far = || {
        out!(
            "covered so far: {:#x}..{:#x} of {:#x}..{:#x}",
            report.range.start,
            report.done,
            report.range.start,
            report.range.end
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

/// Prints what a finished hunt (or merge) found, or what it proved.
pub(crate) fn print_result(report: &HuntReport) -> Result<(), Failure> {
    let target = report.target;
    if report.below_bound > 0 {
        out!(
            "below the lower bound {:#x}: {} candidates rejected without a test (the lowest \
             relevant square's occupancy would share index 0 with the empty board)",
            target.lower_bound(),
            report.below_bound
        );
    }
    if report.found_count == 0 {
        let scope = if report.is_whole_space() {
            format!(
                "no {}-bit {} magic exists for {} {} (the range is the whole period)",
                target.bits(),
                target.scheme(),
                target.kind(),
                square_name(target.square())
            )
        } else {
            format!(
                "no magic in {:#x}..{:#x}",
                report.range.start, report.range.end
            )
        };
        out!("result: {scope}");
        return Ok(());
    }
    print_magics(report.found_count, &report.found, report.best)
}

/// Prints the magics a hunt or a proof found: how many, the smallest, the one with the fewest
/// slots.
pub(crate) fn print_magics(
    count: u64,
    found: &[Found],
    best: Option<Found>,
) -> Result<(), Failure> {
    out!("found: {count} magics");
    for found in found {
        out!(
            "  {:#018x}  indices {} to {}",
            found.magic,
            found.lowest,
            found.highest
        );
    }
    if let Some(best) = best {
        out!(
            "fewest slots: {:#018x}, indices {} to {} ({} slots)",
            best.magic,
            best.lowest,
            best.highest,
            best.span()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::resumable::parse_chunk;

    #[test]
    fn ranges_and_chunks_parse_and_split_without_gaps() {
        assert_eq!(parse_range("0x10..2^8"), Ok(16..256));
        assert!(parse_range("5..5").is_err());
        assert!(parse_range("5").is_err());
        assert_eq!(parse_chunk("3/40"), Ok((3, 40)));
        assert!(parse_chunk("3").is_err());
        assert!(parse_chunk("40/40").is_err());
        assert!(parse_chunk("0/0").is_err());
        let range = 7..1000;
        let parts: Vec<Range<u128>> = (0..7).map(|i| chunk_of(&range, (i, 7))).collect();
        assert_eq!(parts[0].start, 7);
        assert_eq!(parts[6].end, 1000);
        assert!(parts.windows(2).all(|w| w[0].end == w[1].start));
        let whole = 0..(1u128 << 64);
        assert_eq!(chunk_of(&whole, (1, 2)), (1 << 63)..(1 << 64));
    }
}
