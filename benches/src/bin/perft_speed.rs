//! The full perft speed run, the way the perft targets are stated: single thread, no hashing
//! table, the five positions of `benches/data/perft-speed.epd` at their listed depths
//! (429,555,583 nodes), interleaved in rounds so that the machine's drift hits every engine
//! alike: each round takes the positions one at a time and runs every engine on each in turn,
//! so that an engine's run and cozy-chess's are seconds apart. The median of the rounds, and
//! the median of each round's ratio to cozy-chess, in total and per position (each position is
//! timed alone). Every run's node counts are checked against the file. Three sections:
//!
//! - perft: bitforge's own perft with every backend available here, and each peer's fastest
//!   perft (bulk counting);
//! - the engine path, last ply counted: perft through bitforge's public API with the best
//!   backend here (`Position`'s do/undo, and the copy-make `Board`), against cozy-chess's
//!   clone + `play_unchecked` with the last ply counted (its perft above);
//! - the engine path, every move made (the leaves included), for the same two and every peer.
//!
//! ```sh
//! RUSTFLAGS="-C target-cpu=native" cargo run --profile bench -p bitforge-benches \
//!     --features peers --bin perft-speed -- --rounds 5
//! ```
//!
//! `--profile bench` (thin LTO, one codegen unit) builds bitforge and the peers as the
//! criterion benches do. The criterion `perft` bench measures the same positions one ply
//! shallower, with confidence intervals; this is the long run, about two minutes a round.
//!
//! `--alongside PROGRAM` compares two builds of this program (a change against the commit
//! before it): each engine's run of each position is paired with the other build's, seconds
//! apart, and a last table gives this build's speed over the other's per round and position.
//! Run it against itself first: the spread of that table is the machine's noise.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use bitforge::Position;
use bitforge::position::PerftLine;
use bitforge::slider::{Backend, Slider, SliderJob};
use bitforge_benches::engine_path::{Api, EnginePath, Leaves};
use bitforge_benches::machine::{Machine, build_label};
use bitforge_benches::peers::{ChessCrate, Cozy, Peer, Shakmaty};
use bitforge_benches::runs::{Rounds, median, times_alongside};
use clap::Parser;

const SPEED_POSITIONS: &str = include_str!("../../data/perft-speed.epd");

/// Run the full perft speed positions with every backend and peer, in rounds.
#[derive(Debug, Parser)]
#[command(about, long_about)]
struct Args {
    #[command(flatten)]
    rounds: Rounds,
    /// Only these engines (backend names; peer/cozy-chess, peer/chess, peer/shakmaty; the engine
    /// paths as printed, such as every-move/position/pext or every-move/peer/cozy-chess).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Another build of this program (the previous commit's, or a native one) to compare with:
    /// each engine's run of each position is paired with the other build's run of the same,
    /// right before or after it (in turns), so that both meet the same machine, and a last
    /// table gives this build's speed over the other's, engine by engine and position by
    /// position.
    #[arg(long, value_name = "PROGRAM")]
    alongside: Option<PathBuf>,
    /// Run each engine of --only once on the position of this index (from 0), its count
    /// checked, and print `engine nanoseconds` lines: what --alongside reads.
    #[arg(long, hide = true, value_name = "INDEX")]
    one_position: Option<usize>,
}

/// One position of the speed file.
struct SpeedPosition {
    fen: &'static str,
    depth: u32,
    nodes: u64,
}

/// Runs every position once and returns the node counts, in file order.
type RunAll = Box<dyn Fn(&[SpeedPosition]) -> Vec<u64>>;

/// The table an engine's figure goes in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Section {
    /// Each engine's own perft, bulk counting.
    Perft,
    /// Through the public API, the last ply counted.
    LastPly,
    /// Through the public API, every move made.
    EveryMove,
}

impl Section {
    const ALL: [Section; 3] = [Section::Perft, Section::LastPly, Section::EveryMove];

    fn heading(self) -> &'static str {
        match self {
            Section::Perft => "Perft (each engine's own, bulk counting)",
            Section::LastPly => {
                "Engine path, last ply counted (public API; cozy-chess: clone + play_unchecked, \
                 its perft above)"
            }
            Section::EveryMove => "Engine path, every move made (public API, leaves included)",
        }
    }

    /// The engine whose median the ratios of this section are taken to.
    fn cozy(self) -> &'static str {
        match self {
            Section::Perft | Section::LastPly => "peer/cozy-chess",
            Section::EveryMove => "every-move/peer/cozy-chess",
        }
    }
}

/// Something that runs perft: a backend, a path through the public API, or a peer.
struct Engine {
    name: String,
    section: Section,
    run: RunAll,
}

/// Our perft on every position with one backend.
struct OursOnAll<'a>(&'a [SpeedPosition]);

impl SliderJob for OursOnAll<'_> {
    type Output = Vec<u64>;

    fn run<S: Slider>(self, slider: S) -> Vec<u64> {
        self.0
            .iter()
            .map(|p| match Position::from_fen(p.fen, slider) {
                Ok(position) => position.perft(p.depth),
                // The file is checked when read; an unreadable FEN counts no nodes and fails.
                Err(_) => 0,
            })
            .collect()
    }
}

/// A peer's `walk` of every position (its perft, or its every-move walk), in `section`.
fn peer<P: Peer + 'static>(section: Section, walk: fn(&P::Board, u32) -> u64) -> Engine {
    let prefix = match section {
        Section::EveryMove => "every-move/",
        Section::Perft | Section::LastPly => "",
    };
    Engine {
        name: format!("{prefix}peer/{}", P::NAME),
        section,
        run: Box::new(move |positions: &[SpeedPosition]| {
            positions
                .iter()
                .map(|p| walk(&P::board(p.fen), p.depth))
                .collect()
        }),
    }
}

/// bitforge through its public `api`, with `backend`.
fn engine_path(backend: Backend, api: Api, leaves: Leaves) -> Engine {
    Engine {
        name: format!("{}/{}/{}", leaves.name(), api.name(), backend.name()),
        section: match leaves {
            Leaves::LastPlyCounted => Section::LastPly,
            Leaves::EveryMove => Section::EveryMove,
        },
        run: Box::new(move |positions: &[SpeedPosition]| {
            let positions: Vec<(&str, u32)> = positions.iter().map(|p| (p.fen, p.depth)).collect();
            let job = EnginePath {
                positions: &positions,
                api,
                leaves,
            };
            backend.run(job).unwrap_or_default()
        }),
    }
}

fn engines(only: &[String]) -> Vec<Engine> {
    let mut engines: Vec<Engine> = Backend::ALL
        .into_iter()
        .filter(|backend| backend.is_available())
        .map(|backend| Engine {
            name: backend.name().to_string(),
            section: Section::Perft,
            run: Box::new(move |positions: &[SpeedPosition]| {
                backend.run(OursOnAll(positions)).unwrap_or_default()
            }),
        })
        .collect();
    engines.extend([
        peer::<Cozy>(Section::Perft, Cozy::perft),
        peer::<ChessCrate>(Section::Perft, ChessCrate::perft),
        peer::<Shakmaty>(Section::Perft, Shakmaty::perft),
    ]);
    if let Ok(best) = Backend::choose(None) {
        for leaves in [Leaves::LastPlyCounted, Leaves::EveryMove] {
            for api in Api::ALL {
                engines.push(engine_path(best, api, leaves));
            }
        }
    }
    engines.extend([
        peer::<Cozy>(Section::EveryMove, Cozy::perft_every_move),
        peer::<ChessCrate>(Section::EveryMove, ChessCrate::perft_every_move),
        peer::<Shakmaty>(Section::EveryMove, Shakmaty::perft_every_move),
    ]);
    if !only.is_empty() {
        engines.retain(|engine| only.contains(&engine.name));
    }
    engines
}

fn read_positions() -> Result<Vec<SpeedPosition>, String> {
    SPEED_POSITIONS
        .lines()
        .enumerate()
        .map(|(number, text)| {
            let line = PerftLine::parse(text)
                .map_err(|error| format!("perft-speed.epd:{}: {error}", number + 1))?;
            let (depth, nodes) = line
                .counts()
                .last()
                .ok_or_else(|| format!("perft-speed.epd:{}: no depth", number + 1))?;
            Ok(SpeedPosition {
                fen: line.fen,
                depth,
                nodes,
            })
        })
        .collect()
}

/// Times one run of `engine` on `position`: an error if its count is wrong.
fn timed_run(engine: &Engine, position: &SpeedPosition) -> Result<Duration, String> {
    let start = Instant::now();
    let counts = (engine.run)(core::slice::from_ref(position));
    let time = start.elapsed();
    if counts == [position.nodes] {
        Ok(time)
    } else {
        Err(format!(
            "{} counted {counts:?} in {}, expected {}",
            engine.name, position.fen, position.nodes
        ))
    }
}

/// The other build's run of `engine` on the position at `index`.
fn timed_alongside(program: &Path, engine: &Engine, index: usize) -> Result<Duration, String> {
    let args = [
        "--one-position".to_owned(),
        index.to_string(),
        "--only".to_owned(),
        engine.name.clone(),
    ];
    match times_alongside(program, &args)?.as_slice() {
        [(name, time)] if *name == engine.name => Ok(*time),
        _ => Err(format!(
            "{}: no single figure for {}",
            program.display(),
            engine.name
        )),
    }
}

/// This build's run of `engine` on `position` (at `index`) and, with `alongside`, the other
/// build's, first when `other_first`.
fn paired_run(
    engine: &Engine,
    position: &SpeedPosition,
    index: usize,
    alongside: Option<&Path>,
    other_first: bool,
) -> Result<(Duration, Option<Duration>), String> {
    let other = || {
        alongside
            .map(|program| timed_alongside(program, engine, index))
            .transpose()
    };
    if other_first {
        let other_time = other()?;
        Ok((timed_run(engine, position)?, other_time))
    } else {
        let time = timed_run(engine, position)?;
        Ok((time, other()?))
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let positions = match read_positions() {
        Ok(positions) => positions,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    let engines = engines(&args.only);
    if engines.is_empty() {
        eprintln!("error: no engine matches --only (see --help for the names)");
        return ExitCode::from(2);
    }
    if let Some(index) = args.one_position {
        let Some(position) = positions.get(index) else {
            eprintln!(
                "error: no position {index} (the file has {})",
                positions.len()
            );
            return ExitCode::from(2);
        };
        for engine in &engines {
            match timed_run(engine, position) {
                Ok(time) => println!("{} {}", engine.name, time.as_nanos()),
                Err(message) => {
                    eprintln!("error: {message}");
                    return ExitCode::FAILURE;
                }
            }
        }
        return ExitCode::SUCCESS;
    }
    let total: u64 = positions.iter().map(|p| p.nodes).sum();

    // Each round walks the positions one at a time, every engine in turn on each (the first
    // engine a different one each round), so that an engine's run and cozy-chess's of the same
    // position are seconds apart: times[engine][position], and with --alongside the other
    // build's run of each beside it: other[engine][position].
    let mut times = vec![vec![Vec::new(); positions.len()]; engines.len()];
    let mut other = times.clone();
    for round in 1..=args.rounds.rounds {
        for (index, position) in positions.iter().enumerate() {
            let first = (round as usize - 1) % engines.len();
            for number in (first..engines.len()).chain(0..first) {
                // The other build goes first in even rounds, so that neither always runs
                // on the machine as the first left it.
                let pair = paired_run(
                    &engines[number],
                    position,
                    index,
                    args.alongside.as_deref(),
                    round % 2 == 0,
                );
                match pair {
                    Ok((time, other_time)) => {
                        times[number][index].push(time);
                        other[number][index].extend(other_time);
                    }
                    Err(message) => {
                        eprintln!("error: {message}");
                        return ExitCode::FAILURE;
                    }
                }
            }
        }
        for (engine, times) in engines.iter().zip(&times) {
            let elapsed: Duration = times.iter().filter_map(|position| position.last()).sum();
            eprintln!(
                "round {round}/{}: {:<20} {:>8.1} Mnps",
                args.rounds.rounds,
                engine.name,
                mnps(total, elapsed)
            );
        }
    }

    // Per engine: each round's total time, and each position's median.
    let round_totals: Vec<Vec<Duration>> = times.iter().map(|times| round_totals(times)).collect();
    let total_medians: Vec<f64> = round_totals
        .iter()
        .map(|totals| mnps(total, median(&mut totals.clone())))
        .collect();
    let position_medians: Vec<Vec<f64>> = times
        .iter()
        .map(|times| {
            times
                .iter()
                .zip(&positions)
                .map(|(times, position)| mnps(position.nodes, median(&mut times.clone())))
                .collect()
        })
        .collect();
    let index_of = |name: &str| engines.iter().position(|engine| engine.name == name);
    let position_columns = position_columns(&positions);
    let mut table = String::new();
    for section in Section::ALL {
        let members: Vec<usize> = (0..engines.len())
            .filter(|&index| engines[index].section == section)
            .collect();
        if members.is_empty() {
            continue;
        }
        let cozy = index_of(section.cozy());
        table += &format!(
            "\n### {}\n\n| engine | Mnps, median of {} | slowest | fastest | × cozy-chess |\n| --- | --- | --- | --- | --- |\n",
            section.heading(),
            args.rounds.rounds
        );
        for &index in &members {
            let totals = &round_totals[index];
            let slowest = totals.iter().max().copied().unwrap_or_default();
            let fastest = totals.iter().min().copied().unwrap_or_default();
            let median = total_medians[index];
            let ratio = cozy.map_or(String::new(), |cozy| {
                format!("{:.2}", median_speed_ratio(totals, &round_totals[cozy]))
            });
            table += &format!(
                "| {} | {median:.1} | {:.1} | {:.1} | {ratio} |\n",
                engines[index].name,
                mnps(total, slowest),
                mnps(total, fastest)
            );
        }
        table += &format!(
            "\nPer position (in the file's order: the start position, Kiwipete, the Chess \
             Programming Wiki's positions 3, 4 and 5), Mnps, median (× cozy-chess):\n\n\
             | engine |{position_columns}"
        );
        for &index in &members {
            let cells: String = position_medians[index]
                .iter()
                .enumerate()
                .map(|(position, speed)| match cozy {
                    Some(cozy) => format!(
                        " {speed:.1} ({:.2}) |",
                        median_speed_ratio(&times[index][position], &times[cozy][position])
                    ),
                    None => format!(" {speed:.1} |"),
                })
                .collect();
            table += &format!("| {} |{cells}\n", engines[index].name);
        }
    }
    if let Some(program) = &args.alongside {
        table += &alongside_table(program, &engines, &positions, total, &times, &other);
    }
    print!("{table}");
    if args.rounds.out.is_some() {
        let machine = Machine::here();
        let page = format!(
            "# Perft speed run, {build}\n\n\
             Machine: {cpu}, {cores} cores, {kernel}, {rustc}.\n\n\
             Written by `perft-speed` (benches/src/bin/perft_speed.rs) on {date}: the five \
             positions of `benches/data/perft-speed.epd` at their listed depths ({total} nodes), \
             single thread, no hashing table, {rounds} interleaved rounds; every engine's counts \
             checked; bitforge {inline} its `perft-inline` feature. Mnps from the median, \
             slowest and fastest round (each position timed \
             alone, every engine in turn on each position, a round's total their sum); the ratio \
             to cozy-chess the median of the rounds' ratios (the totals', or the position's), \
             within each section (the engine paths through the public API \
             use the best backend here).\n{table}",
            build = build_label(),
            inline = if cfg!(feature = "perft-inline") {
                "with"
            } else {
                "without"
            },
            cpu = machine.cpu,
            cores = machine.cores,
            kernel = machine.kernel,
            rustc = machine.rustc,
            date = machine.date,
            rounds = args.rounds.rounds,
        );
        if let Err(message) = args.rounds.write_page(&page) {
            eprintln!("error: {message}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

/// This build's speed over the other's (`--alongside`), from `times` and `other`
/// ([engine][position], one time a round): per engine, each round's ratio of the totals (the
/// other's time over this one's), median, lowest and highest, and per position the median of
/// its rounds' ratios.
fn alongside_table(
    program: &Path,
    engines: &[Engine],
    positions: &[SpeedPosition],
    total: u64,
    times: &[Vec<Vec<Duration>>],
    other: &[Vec<Vec<Duration>>],
) -> String {
    let rounds = times.first().and_then(|t| t.first()).map_or(0, Vec::len);
    let mut table = format!(
        "\n### This build against `{}`, run alongside\n\nEach engine's run of each position \
         paired with the other build's, right after it in odd rounds and before it in even \
         ones; this / other is each round's speed ratio (the totals' times, the other's over \
         this one's), median, lowest and highest of {rounds} rounds; Mnps from each build's \
         median round.\n\n\
         | engine | this build, Mnps | the other, Mnps | this / other | lowest | highest |\n\
         | --- | --- | --- | --- | --- | --- |\n",
        program.display()
    );
    let mut per_position = String::new();
    for ((engine, ours), theirs) in engines.iter().zip(times).zip(other) {
        let (mut our_totals, mut their_totals) = (round_totals(ours), round_totals(theirs));
        let mut ratios = speed_ratios(&our_totals, &their_totals);
        let lowest = ratios.iter().copied().fold(f64::INFINITY, f64::min);
        let highest = ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        table += &format!(
            "| {} | {:.1} | {:.1} | {:.3} | {lowest:.3} | {highest:.3} |\n",
            engine.name,
            mnps(total, median(&mut our_totals)),
            mnps(total, median(&mut their_totals)),
            median(&mut ratios)
        );
        let cells: String = ours
            .iter()
            .zip(theirs)
            .map(|(ours, theirs)| format!(" {:.3} |", median_speed_ratio(ours, theirs)))
            .collect();
        per_position += &format!("| {} |{cells}\n", engine.name);
    }
    table += &format!(
        "\nThis / other per position (the median of its rounds' ratios):\n\n\
         | engine |{}{per_position}",
        position_columns(positions)
    );
    table
}

/// Each round's speed of `ours` over `theirs`: their time over ours, round by round.
fn speed_ratios(ours: &[Duration], theirs: &[Duration]) -> Vec<f64> {
    ours.iter()
        .zip(theirs)
        .map(|(ours, theirs)| theirs.as_secs_f64() / ours.as_secs_f64())
        .collect()
}

/// The median of [`speed_ratios`].
fn median_speed_ratio(ours: &[Duration], theirs: &[Duration]) -> f64 {
    median(&mut speed_ratios(ours, theirs))
}

/// Millions of nodes a second.
fn mnps(nodes: u64, time: Duration) -> f64 {
    nodes as f64 / time.as_secs_f64() / 1e6
}

/// Each round's total time over the positions, from one engine's times[position][round].
fn round_totals(times: &[Vec<Duration>]) -> Vec<Duration> {
    let rounds = times.first().map_or(0, Vec::len);
    (0..rounds)
        .map(|round| times.iter().map(|position| position[round]).sum())
        .collect()
}

/// The per-position tables' header cells after `| engine |`, and their rule line.
fn position_columns(positions: &[SpeedPosition]) -> String {
    let header: String = positions
        .iter()
        .enumerate()
        .map(|(number, position)| format!(" {} d{} |", number + 1, position.depth))
        .collect();
    format!("{header}\n| --- |{}\n", " --- |".repeat(positions.len()))
}
