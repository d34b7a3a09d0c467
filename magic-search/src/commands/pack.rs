//! `magic-search pack`: overlap the squares' slices into a smaller table.

use std::path::PathBuf;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use magic_search::{ChooseError, MAX_CHAINS, PackEffort, pack_choosing};

use crate::Failure;
use crate::commands::resumable::interrupted;
use crate::files::{Output, command_line, kib, read_set};

/// Overlap the squares' slices of a set (fixed or black, or any verified set) into one smaller
/// table and write the set with the new offsets.
///
/// Slices are placed first-fit (each at the lowest offset where it fits), largest first; then
/// --tries perturbed orders are placed and the smaller kept, then --anneal steps of simulated
/// annealing move one slice at a time in the order, now and then keeping a larger table to
/// leave a local minimum. The packing problem is NP-complete: more steps, smaller tables,
/// never a proof of the smallest. With --post-mask the result is a combined table: lookups AND
/// what they read with the square's empty-board attacks, so rook and bishop slices share slots.
/// Ctrl-C stops the search and writes the best set found so far (exit 130).
#[derive(Debug, Args)]
pub(crate) struct PackArgs {
    /// The `.magics` file to pack.
    file: PathBuf,

    /// Perturbed placement orders to try after the largest-first one.
    #[arg(long, default_value_t = PackEffort::default().tries)]
    tries: u32,

    /// Steps of simulated annealing after the tries (each places every slice again: a black
    /// set takes a few milliseconds a step).
    #[arg(long, default_value_t = PackEffort::default().anneal_steps)]
    anneal: u64,

    /// The annealing's starting temperature in table entries: a step that makes the table d
    /// entries larger is taken with probability exp(-d/T); T falls geometrically to 0.5.
    #[arg(long, default_value_t = PackEffort::default().start_temperature,
          value_parser = parse_temperature)]
    temperature: f64,

    /// Make the set post-masked (`post-mask yes`): each lookup ANDs the table entry with the
    /// square's empty-board attacks, one instruction more, and slices whose rays differ may
    /// share slots. A set that already is stays so.
    #[arg(long)]
    post_mask: bool,

    /// Before placing, stack comb slices (used slots in short teeth with gaps of one period,
    /// such as the rank-8 rooks' of `find --narrow --prefer comb`) into each other, greedily,
    /// the pair that saves the most slots first, and place each stack as one: they then
    /// interleave whole instead of spreading over other slices' holes. A slice alone and at
    /// least 1,024 slots long that fits another stack's holes whole (at most 64 slots out) is
    /// stacked there too: what --fill searches magics for.
    #[arg(long)]
    stack: bool,

    /// Other sets of the same scheme (from other searches, such as `find --narrow --prefer
    /// comb` with other seeds): before packing, each square's magic is chosen among the
    /// set's and theirs, square after square, keeping another one when a quick packing (the
    /// same --stack, the largest-first order and up to 8 of the --tries) gets smaller with it;
    /// with --stack, a round of pairs follows (two combs changed at once, which neither helps
    /// alone), and the rounds repeat until one changes nothing. The written set has the chosen
    /// magics; Ctrl-C keeps those chosen so far.
    #[arg(long, value_name = "SET", num_args = 1..)]
    choose_from: Vec<PathBuf>,

    /// With --stack: before placing, search slices a magic that fits another stack's holes
    /// whole, in this many annealing steps per attempt (tens of microseconds each). Each square
    /// alone in its stack, at least 1,024 slots long (the longest first), is tried against
    /// each stack with at least half its used slots in holes; the annealing flips one or two
    /// bits of the magic a step, its cost the slots that would meet the host's, stick out of
    /// it, or collide. A magic that fits is kept when a quick packing gets smaller with it;
    /// its slice is then stacked into the host and its own span leaves the table. Ctrl-C
    /// keeps the magics found so far.
    #[arg(long, value_name = "STEPS", requires = "stack")]
    fill: Option<u64>,

    /// Seed of the perturbations and the annealing (of the first chain).
    #[arg(long, default_value_t = PackEffort::default().seed)]
    seed: u64,

    /// Independent searches (the tries, then the annealing), each on its own thread, seeded
    /// --seed, --seed + 1, ...; the smallest table is kept. The result depends on the number
    /// of chains, not on the machine: one chain gives what --seed alone gives.
    #[arg(long, default_value_t = PackEffort::default().chains,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_CHAINS)))]
    chains: u32,

    /// Write the packed set here instead of standard output.
    #[arg(long, short)]
    out: Option<PathBuf>,

    /// Overwrite --out if it exists.
    #[arg(long)]
    force: bool,
}

fn parse_temperature(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(t) if t.is_finite() && t > 0.0 => Ok(t),
        _ => Err(format!(
            "'{text}' is not a positive number of table entries"
        )),
    }
}

pub(crate) fn run(args: &PackArgs) -> Result<(), Failure> {
    let output = Output {
        path: args.out.clone(),
        force: args.force,
    };
    output.check_writable()?;
    let mut set = read_set(&args.file)?;
    set.post_masked |= args.post_mask;
    let alternatives = args
        .choose_from
        .iter()
        .map(|path| read_set(path))
        .collect::<Result<Vec<_>, _>>()?;
    let effort = PackEffort {
        tries: args.tries,
        anneal_steps: args.anneal,
        start_temperature: args.temperature,
        seed: args.seed,
        chains: args.chains,
        stack: args.stack,
        fill_steps: args.fill.unwrap_or(0),
    };
    let orders_per_chain = u64::from(args.tries) + args.anneal;
    let progress = ProgressBar::new(orders_per_chain.saturating_mul(u64::from(args.chains)))
        .with_style(
            ProgressStyle::with_template(
                "{spinner} {elapsed_precise} [{bar:40}] {pos}/{len} orders, {msg} (eta {eta})",
            )
            .expect("the template is valid")
            .progress_chars("=> "),
        );
    let packed = pack_choosing(
        &set,
        &alternatives,
        &effort,
        &|now| {
            progress.set_position(now.orders);
            if now.orders == 0 && now.fills > 0 {
                progress.set_message(format!(
                    "filling holes: {} annealings, smallest {} entries",
                    now.fills, now.best_entries
                ));
            } else if now.orders == 0 && now.choices > 0 {
                progress.set_message(format!(
                    "choosing magics: {} quick packings, smallest {} entries",
                    now.choices, now.best_entries
                ));
            } else {
                progress.set_message(format!("smallest {} entries", now.best_entries));
            }
        },
        interrupted(),
    )
    .map_err(|error| match &error {
        ChooseError::Invalid { alternative, .. } => {
            let file = alternative.map_or(&args.file, |i| &args.choose_from[i]);
            Failure::invalid(format!("{}: {error}", file.display()))
        }
        // Another scheme or other bits: the wrong file given, not a broken one.
        ChooseError::Mismatch { alternative, .. } => Failure::input(format!(
            "{}: {error}",
            args.choose_from[*alternative].display()
        )),
    })?;
    progress.finish_and_clear();
    let stopped = if packed.stopped {
        " (stopped by Ctrl-C or SIGTERM: the best arrangement found until then)"
    } else {
        ""
    };
    let mut comments = vec![
        "bitforge magic set, packed by magic-search".to_owned(),
        format!("command: {}", command_line()),
        format!(
            "table entries: {} (before packing: {}){stopped}",
            packed.entries, packed.entries_before
        ),
    ];
    // Squares whose magic choosing changed (a filled square counts as filled).
    let chosen = packed.magics_changed.saturating_sub(packed.filled);
    if !alternatives.is_empty() {
        comments.push(format!(
            "magics chosen from the other sets: {chosen} squares"
        ));
    }
    if args.fill.is_some() {
        comments.push(format!(
            "magics searched to fit another stack's holes: {} squares",
            packed.filled
        ));
    }
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
    if !alternatives.is_empty() {
        eprintln!("magics chosen from the other sets: {chosen} squares");
    }
    if args.fill.is_some() {
        eprintln!(
            "magics searched to fit another stack's holes: {} squares ({} annealings)",
            packed.filled, packed.fill_attempts
        );
    }
    if packed.stopped {
        return Err(Failure::interrupted(
            "stopped: the best arrangement found until then was written",
        ));
    }
    Ok(())
}
