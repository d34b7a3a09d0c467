//! `magic-search hunt`: every candidate of a range for one square.

use core::ops::Range;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use magic_search::{Scheme, SliderKind, hunt};

use crate::Failure;
use crate::commands::square::{PieceArg, SquareArg, parse_number, target};

/// Try every candidate magic of a range for one square: the magics it holds, or a proof that
/// it holds none.
///
/// Candidates at or past the square's period (2^(64 - t), t the lowest relevant square for
/// fancy and fixed magics) act like their remainder, so the default range, the whole period,
/// covers every magic there is: finding none proves that no magic with that many bits exists.
/// --chunk splits the range for several processes or machines (a batch scheduler's array
/// index); each chunk's result holds for its part.
#[derive(Debug, Args)]
pub(crate) struct HuntArgs {
    /// rook or bishop.
    piece: PieceArg,

    /// The square, a1 to h8.
    square: SquareArg,

    /// Index bits to demand.
    #[arg(long)]
    bits: u8,

    /// Index scheme: fancy, fixed or black.
    #[arg(long, default_value_t = Scheme::Fancy)]
    scheme: Scheme,

    /// Candidates START..END (END excluded; 0x hex, 2^N or decimal) [default: the whole period].
    #[arg(long, value_parser = parse_range)]
    range: Option<Range<u128>>,

    /// Only chunk I of N equal parts of the range (I from 0 to N-1), such as `3/40`.
    #[arg(long, value_parser = parse_chunk, default_value = "0/1")]
    chunk: (u32, u32),

    /// Threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,

    /// How many magics to print (the smallest found); the one with the fewest slots is always
    /// printed.
    #[arg(long, default_value_t = 16)]
    keep: usize,
}

fn parse_range(text: &str) -> Result<Range<u128>, String> {
    let (start, end) = text
        .split_once("..")
        .ok_or_else(|| format!("'{text}' is not a range START..END"))?;
    let (start, end) = (parse_number(start)?, parse_number(end)?);
    if start >= end {
        return Err(format!("the range '{text}' is empty"));
    }
    Ok(start..end)
}

fn parse_chunk(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("'{text}' is not a chunk I/N with I from 0 to N-1");
    let (index, count) = text.split_once('/').ok_or_else(bad)?;
    let (index, count): (u32, u32) = (
        index.parse().map_err(|_| bad())?,
        count.parse().map_err(|_| bad())?,
    );
    if count == 0 || index >= count {
        return Err(bad());
    }
    Ok((index, count))
}

/// Part `index` of `count` equal parts of `range`.
fn chunk_of(range: &Range<u128>, (index, count): (u32, u32)) -> Range<u128> {
    let length = range.end - range.start;
    let at = |i: u32| range.start + length * u128::from(i) / u128::from(count);
    at(index)..at(index + 1)
}

pub(crate) fn run(args: &HuntArgs) -> Result<(), Failure> {
    let kind = SliderKind::from(args.piece);
    let target = target(kind, args.square, Some(args.bits), args.scheme)?;
    let period = target.period();
    let space = target.space();
    let range = args.range.clone().unwrap_or(space.clone());
    if range.start >= period {
        return Err(Failure::input(format!(
            "the range starts at {:#x}, past the period {period:#x} of {target}: candidates \
             from there on act like their remainder",
            range.start
        )));
    }
    let range = range.start..range.end.min(period);
    let chunk = chunk_of(&range, args.chunk);
    let threads = args
        .threads
        .map(usize::from)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));

    println!("target: {target}");
    println!(
        "period: {period:#x} (2^{}): every candidate acts like one below it",
        period.trailing_zeros()
    );
    println!(
        "range: {:#x}..{:#x}, chunk {}/{}: {:#x}..{:#x} ({} candidates)",
        range.start,
        range.end,
        args.chunk.0,
        args.chunk.1,
        chunk.start,
        chunk.end,
        chunk.end - chunk.start
    );

    let total = u64::try_from(chunk.end - chunk.start).unwrap_or(u64::MAX);
    let progress = ProgressBar::new(total).with_style(
        ProgressStyle::with_template(
            "{spinner} {elapsed_precise} [{bar:40}] {percent}% {per_sec}, about {eta} left",
        )
        .expect("the template is valid")
        .progress_chars("=> "),
    );
    let started = Instant::now();
    let stop = AtomicBool::new(false);
    let report = hunt(
        target,
        chunk.clone(),
        threads,
        args.keep,
        &|covered| progress.inc(covered),
        &stop,
    );
    let seconds = started.elapsed().as_secs_f64();
    progress.finish_and_clear();

    if report.below_bound > 0 {
        println!(
            "below the lower bound {:#x}: {} candidates rejected without a test (the lowest \
             relevant square's occupancy would share index 0 with the empty board)",
            target.lower_bound(),
            report.below_bound
        );
    }
    println!(
        "tested: {} candidates in {seconds:.2} s ({:.1} million per second, {threads} threads)",
        report.tested,
        report.tested as f64 / seconds.max(1e-9) / 1e6
    );
    if report.found_count == 0 {
        let scope = if chunk == space {
            format!(
                "no {}-bit {} magic exists for {} {} (the range is the whole period)",
                target.bits(),
                target.scheme(),
                kind,
                magic_search::geometry::square_name(target.square())
            )
        } else {
            format!("no magic in {:#x}..{:#x}", chunk.start, chunk.end)
        };
        println!("result: {scope}");
        return Ok(());
    }
    println!("found: {} magics", report.found_count);
    for found in &report.found {
        println!(
            "  {:#018x}  indices {} to {}",
            found.magic, found.lowest, found.highest
        );
    }
    if let Some(best) = report.best {
        println!(
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

    #[test]
    fn ranges_and_chunks_parse_and_split_without_gaps() {
        assert_eq!(parse_range("0x10..2^8"), Ok(16..256));
        assert!(parse_range("5..5").is_err());
        assert!(parse_range("5").is_err());
        assert_eq!(parse_chunk("3/40"), Ok((3, 40)));
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
