//! `magic-search reduce`: lower a fancy set's index bits, square by square, from its neighbours.

use std::path::PathBuf;
use std::time::Duration;

use bitforge_index::geometry::square_name;
use bitforge_index::{MagicSet, Scheme, SliderKind};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use magic_search::{ProofReport, ReduceEffort, Target, reduce_set};

use crate::Failure;
use crate::commands::options::{budget_of, parse_duration, threads_or_all_cores};
use crate::commands::resumable::{header, interrupted, read_text};
use crate::commands::square::PieceArg;
use crate::commands::{hunt, prove};
use crate::files::{Output, command_line, kib, read_verified};

/// Lower a fancy set's index bits: in rounds, every square looks for a magic one bit below
/// its own, and keeps it if found.
///
/// Candidates are drawn near the reduced magics other squares of the same kind already have
/// (shifted by a file, rank or diagonal step, a few bits flipped) and among negated sparse and
/// dense random numbers. Reduced rook magics come in families: once one square of a rank has
/// one, its neighbours' are a shift and a few bits away, where random draws almost never land.
/// The rounds end after --rounds or when one reduces nothing; run it again on its output to
/// go on. The same options give the same set on any number of threads (a --time-budget
/// excepted). Ctrl-C stops the search and writes the set with the magics found so far (exit
/// 130).
#[derive(Debug, Args)]
pub(crate) struct ReduceArgs {
    /// The fancy `.magics` file to reduce (such as one from `find --bits min`).
    file: PathBuf,

    /// Candidates per square and round [default: 67108864; README gives the time it takes].
    #[arg(long, conflicts_with = "time_budget", value_parser = clap::value_parser!(u64).range(1..))]
    attempts: Option<u64>,

    /// Time per square and round instead of --attempts, such as `500ms` or `2s` (results then
    /// depend on the machine's speed).
    #[arg(long, value_parser = parse_duration)]
    time_budget: Option<Duration>,

    /// Rounds at most (each tries every square once).
    #[arg(long, default_value_t = ReduceEffort::default().rounds,
          value_parser = clap::value_parser!(u32).range(1..))]
    rounds: u32,

    /// Seed of the squares' random streams.
    #[arg(long, default_value_t = ReduceEffort::default().seed)]
    seed: u64,

    /// Reduce only the rook or only the bishop squares (the others keep their magics).
    #[arg(long)]
    kind: Option<PieceArg>,

    /// Proof or hunt files (`prove` or `hunt --checkpoint`) of fancy targets. One that found
    /// a magic with fewer bits than the set's gives the square that magic (the one with the
    /// fewest slots); one finished over the whole space with none is a floor: a square proved
    /// to have no N-bit magic is not searched below N + 1 bits.
    #[arg(long, visible_alias = "floors", num_args = 1.., value_name = "PROOF")]
    proofs: Vec<PathBuf>,

    /// Search threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,

    /// Write the set here instead of standard output.
    #[arg(long, short)]
    out: Option<PathBuf>,

    /// Overwrite --out if it exists.
    #[arg(long)]
    force: bool,
}

/// What proof and hunt files tell `reduce`: the floors they prove (no magic with their bits,
/// so one bit more at least) and the smaller magics they found.
#[derive(Debug)]
struct Proved {
    floors: [[u8; 64]; 2],
    /// For each file that found magics: its target, the magic with the fewest slots, the file.
    magics: Vec<(Target, u64, PathBuf)>,
}

fn read_proofs(files: &[PathBuf]) -> Result<Proved, Failure> {
    let mut proved = Proved {
        floors: [[0; 64]; 2],
        magics: Vec::new(),
    };
    for path in files {
        let text = read_text(path, "a proof or hunt state file")?;
        let (target, whole, best) = if header(&text) == ProofReport::HEADER {
            let proof = prove::read_state(path)?;
            (proof.target, proof.is_whole_space(), proof.tally.best)
        } else {
            let report = hunt::read_state(path)?;
            (report.target, report.is_whole_space(), report.best)
        };
        if target.scheme() != Scheme::Fancy {
            return Err(Failure::input(format!(
                "{}: {target} is not a fancy target: `reduce` works on fancy sets",
                path.display()
            )));
        }
        let (kind, square) = (target.kind(), target.square());
        match best {
            Some(found) => proved.magics.push((target, found.magic, path.clone())),
            None if whole => {
                let floor = &mut proved.floors[kind as usize][usize::from(square)];
                *floor = (*floor).max(target.bits() + 1);
            }
            None => {
                return Err(Failure::input(format!(
                    "{}: neither a magic nor a floor for {target}: the file found no magic and \
                     does not cover the whole space (finish it, or `merge` its chunks first)",
                    path.display()
                )));
            }
        }
    }
    Ok(proved)
}

/// `set` with each proved magic that has fewer bits than the set's own for its square (the
/// slices laid out again end to end); one line for each magic taken.
fn with_proved_magics(
    set: &MagicSet,
    magics: &[(Target, u64, PathBuf)],
) -> (MagicSet, Vec<String>) {
    let mut pairs = [SliderKind::Rook, SliderKind::Bishop]
        .map(|kind| set.entries(kind).map(|entry| (entry.magic, entry.bits)));
    let mut taken = Vec::new();
    for &(target, magic, ref path) in magics {
        let pair = &mut pairs[target.kind() as usize][usize::from(target.square())];
        if target.bits() < pair.1 {
            *pair = (magic, target.bits());
            taken.push(format!(
                "{} {}: {} bits ({magic:#018x}) from {}",
                target.kind(),
                square_name(target.square()),
                target.bits(),
                path.display()
            ));
        }
    }
    if taken.is_empty() {
        return (set.clone(), taken);
    }
    let [rook, bishop] = pairs;
    (
        MagicSet::with_dense_offsets(set.scheme, rook, bishop),
        taken,
    )
}

pub(crate) fn run(args: &ReduceArgs) -> Result<(), Failure> {
    let output = Output {
        path: args.out.clone(),
        force: args.force,
    };
    output.check_writable()?;
    let (set, table) = read_verified(&args.file)?;
    let entries_in_file = table.entries() as u64;
    let proved = read_proofs(&args.proofs)?;
    let (set, taken) = with_proved_magics(&set, &proved.magics);
    for line in &taken {
        eprintln!("{line}");
    }
    let effort = ReduceEffort {
        budget: budget_of(
            args.attempts,
            args.time_budget,
            ReduceEffort::default().budget,
        ),
        rounds: args.rounds,
        seed: args.seed,
        threads: threads_or_all_cores(args.threads),
        only: args.kind.map(SliderKind::from),
        floors: proved.floors,
    };
    let progress = ProgressBar::new(128).with_style(
        ProgressStyle::with_template(
            "{spinner} {elapsed_precise} [{bar:40}] {pos}/{len} squares, {msg}",
        )
        .expect("the template is valid")
        .progress_chars("=> "),
    );
    let reduced = reduce_set(
        &set,
        &effort,
        &|now| {
            progress.set_length(now.squares as u64);
            progress.set_position(now.squares_done as u64);
            let status = format!(
                "round {}: {} bits lost so far, {} entries",
                now.round, now.reductions, now.entries
            );
            if now.round_finished {
                // A line per round, kept in logs where the bar is not drawn.
                progress.suspend(|| eprintln!("{status}"));
            }
            progress.set_message(status);
        },
        interrupted(),
    )
    .map_err(|error| Failure::input(format!("{}: {error}", args.file.display())))?;
    progress.finish_and_clear();
    let stopped = if reduced.stopped {
        " (stopped by Ctrl-C or SIGTERM: the magics found until then)"
    } else {
        ""
    };
    let mut comments = vec![
        "bitforge magic set, reduced by magic-search".to_owned(),
        format!("command: {}", command_line()),
        format!(
            "table entries: {} (before: {entries_in_file}), {} bits lost in {} rounds{stopped}",
            reduced.entries, reduced.reductions, reduced.rounds
        ),
    ];
    comments.extend(taken.iter().map(|line| format!("proved: {line}")));
    output.write(&reduced.set.to_text(&comments))?;
    let entries = |n: u64| usize::try_from(n).expect("a fancy table fits in memory");
    eprintln!(
        "table entries: {} ({:.1} KiB), from {} ({:.1} KiB)",
        reduced.entries,
        kib(entries(reduced.entries)),
        entries_in_file,
        kib(entries(entries_in_file))
    );
    eprintln!(
        "{} bits lost in {} rounds, {} candidates; {} squares at their floor left alone",
        reduced.reductions, reduced.rounds, reduced.candidates, reduced.at_floor
    );
    if reduced.stopped {
        return Err(Failure::interrupted(
            "stopped: the set with the magics found until then was written",
        ));
    }
    Ok(())
}
