//! `magic-search find`: search a full set.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use magic_search::{BitsTarget, Budget, DEFAULT_SEED, Scheme, SearchConfig, find_set, verify};

use crate::Failure;
use crate::files::{Output, command_line, kib};

/// Find a full magic set (rook and bishop on all 64 squares) and verify it.
///
/// The same seed and options give the same file on any number of threads (a --time-budget
/// excepted: it depends on the machine's speed).
#[derive(Debug, Args)]
pub(crate) struct FindArgs {
    /// Index scheme: fancy (variable shift, dense), fixed (shift 12/9, to pack) or black
    /// (`(occ | !mask) * magic`, shift 12/9, to pack).
    #[arg(long, default_value_t = Scheme::Fancy)]
    scheme: Scheme,

    /// Seed of the random streams (each square has its own, derived from this).
    #[arg(long, default_value_t = DEFAULT_SEED)]
    seed: u64,

    /// Search threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,

    /// Index bits per square (fancy only): `mask` (as many as the relevant mask), `-N` (N fewer:
    /// "hard" magics) or `min` (one fewer at a time until the budget runs out). A square whose
    /// budget runs out keeps its best magic.
    #[arg(long, default_value = "mask", value_parser = parse_bits, allow_hyphen_values = true)]
    bits: BitsTarget,

    /// Candidates tried per square and reduced bit level before giving up.
    #[arg(long, conflicts_with = "time_budget", value_parser = clap::value_parser!(u64).range(1..))]
    attempts: Option<u64>,

    /// Time per square and reduced bit level before giving up, such as `500ms`, `2s` or `1m`.
    #[arg(long, value_parser = parse_duration)]
    time_budget: Option<Duration>,

    /// For fixed and black: keep the best of this many valid magics per square (the one whose
    /// indices span the fewest slots, which packs tighter).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    candidates: u32,

    /// Write the set to this file (`.magics`) instead of standard output.
    #[arg(long, short)]
    out: Option<PathBuf>,

    /// Overwrite --out if it exists.
    #[arg(long)]
    force: bool,

    /// Print only the summary, not the set (the default when no subcommand is given).
    #[arg(long)]
    summary_only: bool,
}

impl Default for FindArgs {
    fn default() -> Self {
        FindArgs {
            scheme: Scheme::Fancy,
            seed: DEFAULT_SEED,
            threads: None,
            bits: BitsTarget::Mask,
            attempts: None,
            time_budget: None,
            candidates: 1,
            out: None,
            force: false,
            summary_only: true,
        }
    }
}

fn parse_bits(text: &str) -> Result<BitsTarget, String> {
    match text {
        "mask" => Ok(BitsTarget::Mask),
        "min" => Ok(BitsTarget::Minimise),
        _ => match text.strip_prefix('-').map(str::parse::<u8>) {
            Some(Ok(fewer @ 1..=8)) => Ok(BitsTarget::Fewer(fewer)),
            _ => Err(format!(
                "'{text}' is not mask, min or -N with N from 1 to 8"
            )),
        },
    }
}

pub(crate) fn parse_duration(text: &str) -> Result<Duration, String> {
    let split = text
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let value: f64 = number
        .parse()
        .map_err(|_| format!("'{text}' is not a duration such as 500ms, 2s or 1m"))?;
    let seconds = match unit {
        "ms" => value / 1000.0,
        "s" | "" => value,
        "m" => value * 60.0,
        _ => {
            return Err(format!(
                "unknown unit '{unit}' in '{text}' (use ms, s or m)"
            ));
        }
    };
    Duration::try_from_secs_f64(seconds).map_err(|error| format!("'{text}': {error}"))
}

pub(crate) fn run(args: &FindArgs) -> Result<(), Failure> {
    if args.scheme != Scheme::Fancy && args.bits != BitsTarget::Mask {
        return Err(Failure::input(format!(
            "--bits applies to the fancy scheme only: {} fixes 12 bits for rooks and 9 for bishops",
            args.scheme
        )));
    }
    let output = Output {
        path: args.out.clone(),
        force: args.force,
    };
    output.check_writable()?;

    let budget = match (args.attempts, args.time_budget) {
        (_, Some(time)) => Budget::Time(time),
        (Some(attempts), None) => Budget::Attempts(attempts),
        (None, None) => Budget::default(),
    };
    let config = SearchConfig {
        scheme: args.scheme,
        seed: args.seed,
        bits: args.bits,
        budget,
        candidates: args.candidates,
    };
    let threads = args
        .threads
        .map(usize::from)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));

    let progress = ProgressBar::new(128).with_style(
        ProgressStyle::with_template(
            "{spinner} {elapsed_precise} [{bar:40}] {pos}/{len} squares, {msg}",
        )
        .expect("the template is valid")
        .progress_chars("=> "),
    );
    progress.set_message(format!("{} magics", config.scheme));
    let started = Instant::now();
    let (set, stats) = find_set(&config, threads, &|_| progress.inc(1));
    let searched = started.elapsed();
    progress.finish_and_clear();

    let table = verify(&set)
        .map_err(|error| Failure::invalid(format!("the search returned a bad set: {error}")))?;
    let total = started.elapsed();

    if args.out.is_some() || !args.summary_only {
        let comments = [
            "bitforge magic set, written by magic-search".to_owned(),
            format!("command: {}", command_line()),
            format!("table entries: {}", table.entries()),
        ];
        output.write(&set.to_text(&comments))?;
    }

    let rook_bits: u32 = set.rook.iter().map(|e| 1u32 << e.bits).sum();
    let bishop_bits: u32 = set.bishop.iter().map(|e| 1u32 << e.bits).sum();
    eprintln!("scheme: {}", set.scheme);
    eprintln!("seed: {}", config.seed);
    eprintln!("threads: {threads}");
    eprintln!(
        "squares: {} (rook 64, bishop 64), all verified",
        stats.squares
    );
    eprintln!(
        "table entries: {} ({:.1} KiB; rook slices {rook_bits}, bishop slices {bishop_bits})",
        table.entries(),
        kib(table.entries())
    );
    eprintln!("candidates tried: {}", stats.candidates_tried);
    eprintln!(
        "time: {:.2} ms (search {:.2} ms, verify {:.2} ms)",
        total.as_secs_f64() * 1e3,
        searched.as_secs_f64() * 1e3,
        (total - searched).as_secs_f64() * 1e3
    );
    if let Some(path) = &args.out {
        eprintln!("written: {}", path.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_and_durations_parse() {
        assert_eq!(parse_bits("-2"), Ok(BitsTarget::Fewer(2)));
        assert_eq!(parse_bits("min"), Ok(BitsTarget::Minimise));
        assert!(parse_bits("-0").is_err());
        assert!(parse_bits("3").is_err());
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("2"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_duration("1.5m"), Ok(Duration::from_secs(90)));
        assert!(parse_duration("2h").is_err());
        assert!(parse_duration("fast").is_err());
    }
}
