//! `magic-search find`: search a full set.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bitforge_index::{AttackTable, MagicSet, Scheme, SliderKind, verify};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use magic_search::{
    BitsTarget, Budget, Chunk, DEFAULT_SEED, FindState, Prefer, SearchConfig, Target, Vectors, find,
};

use crate::Failure;
use crate::commands::options::{budget_of, parse_duration, threads_or_all_cores};
use crate::commands::resumable::{
    Checkpoint, WorkArgs, check_kept, interrupted, read_text, state_comments, stopped,
};
use crate::commands::square::PieceArg;
use crate::files::{Output, command_line, kib, read_set, same_file};

/// Find a full magic set (rook and bishop on all 64 squares) and verify it.
///
/// The same seed and options give the same file on any number of threads (a --time-budget
/// excepted: it depends on the machine's speed). --chunk splits the 128 squares into up to 128
/// parts for several processes or machines; --checkpoint keeps the progress in a file, so that
/// a stopped search resumes where it stopped; `merge` combines the chunks' files into the set.
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
    #[arg(long, default_value = "mask", allow_hyphen_values = true)]
    bits: BitsTarget,

    /// Candidates tried per square and reduced bit level before giving up (with --narrow:
    /// candidates in a row without a better magic) [default: 16777216].
    #[arg(long, conflicts_with = "time_budget", value_parser = clap::value_parser!(u64).range(1..))]
    attempts: Option<u64>,

    /// Time per square and reduced bit level before giving up (with --narrow: time without a
    /// better magic), such as `500ms`, `2s` or `1m`.
    #[arg(long, value_parser = parse_duration)]
    time_budget: Option<Duration>,

    /// For fixed and black: keep the best of this many valid magics per square (by --prefer,
    /// which packs tighter).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    candidates: u32,

    /// For fixed and black: after the candidates, keep looking per square for magics better
    /// (by --prefer) than the kept one, until --attempts (or --time-budget) candidates in a row
    /// bring no better one. Narrow slices pack into smaller tables.
    #[arg(long)]
    narrow: bool,

    /// What makes a magic better for --candidates and --narrow: `span` (fewer slots from its
    /// lowest index to its highest: short slices, what `pack` needs), `comb` (a smaller comb
    /// footprint: the span, or for a slice whose used slots repeat in short teeth with gaps of
    /// one period, the teeth alone; such combs interleave under `pack --stack`, and the
    /// smallest black tables come from them) or `used` (fewer distinct slots used, then the
    /// shorter span: for research; its holes are scattered, and such sets pack worse).
    #[arg(long, default_value_t = Prefer::Span)]
    prefer: Prefer,

    /// With --narrow: start from this set's magics (`.magics`, the same scheme), each square
    /// keeping its magic until a better one turns up, so the result is never worse on any
    /// square (the squares start narrowing at once: no --candidates). Give another --seed than
    /// the set's search for new candidates. A --checkpoint that exists already holds its start
    /// and is resumed as it is.
    #[arg(
        long,
        value_name = "SET",
        requires = "narrow",
        conflicts_with = "candidates"
    )]
    from: Option<PathBuf>,

    /// With --from: narrow only the rook or only the bishop squares (the others keep the set's
    /// magics).
    #[arg(long, requires = "from")]
    kind: Option<PieceArg>,

    /// Write the set to this file (`.magics`) instead of standard output.
    #[arg(long, short)]
    out: Option<PathBuf>,

    /// Overwrite --out if it exists.
    #[arg(long)]
    force: bool,

    /// Print only the summary, not the set (the default when no subcommand is given).
    #[arg(long)]
    summary_only: bool,

    #[command(flatten)]
    work: WorkArgs,
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
            narrow: false,
            prefer: Prefer::Span,
            from: None,
            kind: None,
            out: None,
            force: false,
            summary_only: true,
            work: WorkArgs::default(),
        }
    }
}

pub(crate) fn run(args: &FindArgs) -> Result<(), Failure> {
    if args.scheme != Scheme::Fancy && args.bits != BitsTarget::Mask {
        return Err(Failure::input(format!(
            "--bits applies to the fancy scheme only: {} fixes 12 bits for rooks and 9 for bishops",
            args.scheme
        )));
    }
    if args.scheme == Scheme::Fancy && args.narrow {
        return Err(Failure::input(
            "--narrow applies to the fixed and black schemes: fancy slices are dense",
        ));
    }
    let chunk = Chunk::new(args.work.chunk.0, args.work.chunk.1).map_err(Failure::input)?;
    let whole = chunk == Chunk::WHOLE;
    if !whole && args.work.checkpoint.is_none() {
        return Err(Failure::input(format!(
            "chunk {chunk} is part of a set: its result is its state file, so give --checkpoint \
             FILE (then `magic-search merge` the chunks' files into the set)"
        )));
    }
    if !whole && args.out.is_some() {
        return Err(Failure::input(format!(
            "chunk {chunk} is part of a set and writes no set: its result is the --checkpoint \
             file (`magic-search merge --out` writes the set)"
        )));
    }
    let output = Output {
        path: args.out.clone(),
        force: args.force,
    };
    output.check_writable()?;
    if let (Some(out), Some(checkpoint)) = (&args.out, &args.work.checkpoint)
        && same_file(out, checkpoint)
    {
        return Err(Failure::input(format!(
            "--out and --checkpoint name the same file, {}: the set would replace the search's \
             state",
            out.display()
        )));
    }

    let budget = budget_of(args.attempts, args.time_budget, Budget::default());
    let config = SearchConfig {
        scheme: args.scheme,
        seed: args.seed,
        bits: args.bits,
        budget,
        candidates: args.candidates,
        narrow: args.narrow,
        prefer: args.prefer,
        vectors: Vectors::default(),
    };
    let threads = threads_or_all_cores(args.threads);

    let mut fresh = FindState::new(config, chunk);
    if let Some(path) = &args.from {
        fresh = fresh
            .starting_from(&read_set(path)?)
            .map_err(|error| Failure::input(format!("{}: {error}", path.display())))?;
        if let Some(kind) = args.kind {
            fresh = fresh.only(SliderKind::from(kind)).map_err(Failure::input)?;
        }
    }
    let start = match &args.work.checkpoint {
        Some(path) if path.exists() => {
            let saved = read_state(path)?;
            if saved.config != config || saved.chunk != chunk {
                return Err(Failure::input(format!(
                    "{} holds chunk {} of another search (scheme {}, seed {}, bits {}, budget \
                     {}, candidates {}, narrow {}, prefer {}): give the options it was started \
                     with, or another file",
                    path.display(),
                    saved.chunk,
                    saved.config.scheme,
                    saved.config.seed,
                    saved.config.bits,
                    saved.config.budget,
                    saved.config.candidates,
                    saved.config.narrow,
                    saved.config.prefer
                )));
            }
            saved
        }
        _ => fresh,
    };
    let checkpoint = args.work.checkpoint();
    // Written at once, so that a checkpoint that cannot be written stops the search before
    // any work is done.
    if let Some(file) = &checkpoint {
        file.write_now(&state_text(&start))?;
    }
    if start.done() > 0 || start.stats().candidates_tried > 0 {
        eprintln!(
            "resumed: {} of {} squares done, {} candidates tried before",
            start.done(),
            start.squares.len(),
            start.stats().candidates_tried
        );
    }

    let progress = ProgressBar::new(start.squares.len() as u64).with_style(
        ProgressStyle::with_template(
            "{spinner} {elapsed_precise} [{bar:40}] {pos}/{len} squares, {msg}",
        )
        .expect("the template is valid")
        .progress_chars("=> "),
    );
    progress.set_message(format!("{} magics", config.scheme));
    progress.set_position(start.done() as u64);
    let save = |state: &FindState| {
        if let Some(file) = &checkpoint {
            file.save(|| state_text(state), &progress);
        }
    };
    let tried_before = start.stats().candidates_tried;
    let started = Instant::now();
    let state = find(
        start,
        threads,
        args.work.checkpoint_every,
        &|_| progress.inc(1),
        &save,
        interrupted(),
    );
    let searched = started.elapsed();
    progress.finish_and_clear();

    if !state.is_complete() {
        eprintln!(
            "squares done: {} of {} (chunk {chunk})",
            state.done(),
            state.squares.len()
        );
        if let Some(file) = &checkpoint {
            file.write_now(&state_text(&state))?;
        }
        return Err(stopped(checkpoint.as_ref().map(Checkpoint::path)));
    }
    // The final state first: whatever happens to the set's file, the work is kept. A state
    // that cannot be written (a full disk) does not stop the set from being written: the
    // failure is reported after it.
    let checkpoint_failure = checkpoint
        .as_ref()
        .and_then(|file| file.write_now(&state_text(&state)).err());
    let tried = state.stats().candidates_tried - tried_before;
    if !whole {
        eprintln!(
            "chunk {chunk}: {} squares done, {tried} candidates tried in {:.2} s",
            state.squares.len(),
            searched.as_secs_f64()
        );
        if let Some(failure) = checkpoint_failure {
            return Err(failure);
        }
        if let Some(file) = &checkpoint {
            eprintln!(
                "written: {} (merge every chunk's file with `magic-search merge`)",
                file.path().display()
            );
        }
        return Ok(());
    }
    let set = state.to_set().expect("a complete whole search has a set");
    let table = verify(&set)
        .map_err(|error| Failure::invalid(format!("the search returned a bad set: {error}")))?;
    let total = started.elapsed();
    if args.out.is_some() || !args.summary_only {
        write_set(&set, &table, &output)?;
    }
    print_summary(&set, &table, &state);
    eprintln!("threads: {threads}");
    if tried_before > 0 {
        eprintln!("of which in this run: {tried}");
    }
    eprintln!(
        "time: {:.2} ms (search {:.2} ms, verify {:.2} ms)",
        total.as_secs_f64() * 1e3,
        searched.as_secs_f64() * 1e3,
        (total - searched).as_secs_f64() * 1e3
    );
    if let Some(path) = &args.out {
        eprintln!("written: {}", path.display());
    }
    checkpoint_failure.map_or(Ok(()), Err)
}

/// The state file's text for `state`.
pub(crate) fn state_text(state: &FindState) -> String {
    state.to_text(&state_comments("set search state"))
}

/// Reads a set search state file, checking every magic it keeps.
pub(crate) fn read_state(path: &Path) -> Result<FindState, Failure> {
    let text = read_text(path, "a set search state file")?;
    let state = FindState::parse(&text)
        .map_err(|error| Failure::input(format!("{}: {error}", path.display())))?;
    for square in &state.squares {
        if let Some((found, bits)) = &square.best {
            let target = Target::new(square.kind, square.square, *bits, state.config.scheme)
                .map_err(|error| Failure::input(format!("{}: {error}", path.display())))?;
            check_kept(path, target, found)?;
        }
    }
    Ok(state)
}

/// Writes a verified set with its provenance.
pub(crate) fn write_set(
    set: &MagicSet,
    table: &AttackTable,
    output: &Output,
) -> Result<(), Failure> {
    let comments = [
        "bitforge magic set, written by magic-search".to_owned(),
        format!("command: {}", command_line()),
        format!("table entries: {}", table.entries()),
    ];
    output.write(&set.to_text(&comments))
}

/// The summary of a whole search's set.
pub(crate) fn print_summary(set: &MagicSet, table: &AttackTable, state: &FindState) {
    let rook_bits: u32 = set.rook.iter().map(|e| 1u32 << e.bits).sum();
    let bishop_bits: u32 = set.bishop.iter().map(|e| 1u32 << e.bits).sum();
    eprintln!("scheme: {}", set.scheme);
    eprintln!("seed: {}", state.config.seed);
    eprintln!(
        "squares: {} (rook 64, bishop 64), all verified",
        state.squares.len()
    );
    eprintln!(
        "table entries: {} ({:.1} KiB; rook slices {rook_bits}, bishop slices {bishop_bits})",
        table.entries(),
        kib(table.entries())
    );
    eprintln!("candidates tried: {}", state.stats().candidates_tried);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_parse() {
        assert_eq!("-2".parse(), Ok(BitsTarget::Fewer(2)));
        assert_eq!("min".parse(), Ok(BitsTarget::Minimise));
        assert!("-0".parse::<BitsTarget>().is_err());
        assert!("3".parse::<BitsTarget>().is_err());
    }
}
