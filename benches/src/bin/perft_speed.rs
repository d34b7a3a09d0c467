//! The full perft speed run, the way the perft targets are stated: single thread, no hashing
//! table, the five positions of `benches/data/perft-speed.epd` at their listed depths
//! (429,555,583 nodes), interleaved in rounds so that the machine's drift hits every engine
//! alike; the median of the rounds, and each one's ratio to cozy-chess. Every run's node counts
//! are checked against the file. Three sections:
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
//! shallower, with confidence intervals; this is the long run, about 12 seconds a round.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use bitforge::Position;
use bitforge::position::PerftLine;
use bitforge::slider::{Backend, Slider, SliderJob};
use bitforge_benches::engine_path::{Api, EnginePath, Leaves};
use bitforge_benches::machine::{Machine, build_label};
use bitforge_benches::peers::{ChessCrate, Cozy, Peer, Shakmaty};
use clap::Parser;

const SPEED_POSITIONS: &str = include_str!("../../data/perft-speed.epd");

/// Run the full perft speed positions with every backend and peer, in rounds.
#[derive(Debug, Parser)]
#[command(about, long_about)]
struct Args {
    /// How many rounds (each engine runs once per round); the median is reported.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=100))]
    rounds: u32,
    /// Only these engines (backend names; peer/cozy-chess, peer/chess, peer/shakmaty; the engine
    /// paths as printed, such as every-move/position/pext or every-move/peer/cozy-chess).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Also write the table (Markdown) to this file.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
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
            for api in [Api::Position, Api::Board, Api::BoardPositionKey] {
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

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
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
    let expected: Vec<u64> = positions.iter().map(|p| p.nodes).collect();
    let total: u64 = expected.iter().sum();

    let mut times = vec![Vec::new(); engines.len()];
    for round in 1..=args.rounds {
        for (engine, times) in engines.iter().zip(&mut times) {
            let start = Instant::now();
            let counts = (engine.run)(&positions);
            let elapsed = start.elapsed();
            if counts != expected {
                eprintln!(
                    "error: {} counted {counts:?}, expected {expected:?}",
                    engine.name
                );
                return ExitCode::FAILURE;
            }
            eprintln!(
                "round {round}/{}: {:<20} {:>8.1} Mnps",
                args.rounds,
                engine.name,
                total as f64 / elapsed.as_secs_f64() / 1e6
            );
            times.push(elapsed);
        }
    }

    let mnps = |time: Duration| total as f64 / time.as_secs_f64() / 1e6;
    let medians: Vec<Duration> = times.iter_mut().map(|t| median(t)).collect();
    let median_of = |name: &str| {
        engines
            .iter()
            .position(|engine| engine.name == name)
            .map(|index| mnps(medians[index]))
    };
    let mut table = String::new();
    for section in Section::ALL {
        let members: Vec<usize> = (0..engines.len())
            .filter(|&index| engines[index].section == section)
            .collect();
        if members.is_empty() {
            continue;
        }
        let cozy = median_of(section.cozy());
        table += &format!(
            "\n### {}\n\n| engine | Mnps, median of {} | slowest | fastest | × cozy-chess |\n| --- | --- | --- | --- | --- |\n",
            section.heading(),
            args.rounds
        );
        for index in members {
            let times = &times[index];
            let slowest = times.iter().max().copied().unwrap_or_default();
            let fastest = times.iter().min().copied().unwrap_or_default();
            let median = mnps(medians[index]);
            let ratio = cozy.map_or(String::new(), |cozy| format!("{:.2}", median / cozy));
            table += &format!(
                "| {} | {median:.1} | {:.1} | {:.1} | {ratio} |\n",
                engines[index].name,
                mnps(slowest),
                mnps(fastest)
            );
        }
    }
    print!("{table}");
    if let Some(path) = args.out {
        let machine = Machine::here();
        let page = format!(
            "# Perft speed run, {build}\n\n\
             Machine: {cpu}, {cores} cores, {kernel}, {rustc}.\n\n\
             Written by `perft-speed` (benches/src/bin/perft_speed.rs) on {date}: the five \
             positions of `benches/data/perft-speed.epd` at their listed depths ({total} nodes), \
             single thread, no hashing table, {rounds} interleaved rounds; every engine's counts \
             checked. Mnps from the median, slowest and fastest round; the ratio to cozy-chess \
             from the medians, within each section (the engine paths through the public API \
             use the best backend here).\n{table}",
            build = build_label(),
            cpu = machine.cpu,
            cores = machine.cores,
            kernel = machine.kernel,
            rustc = machine.rustc,
            date = machine.date,
            rounds = args.rounds,
        );
        let written =
            std::fs::File::create(&path).and_then(|mut file| file.write_all(page.as_bytes()));
        if let Err(error) = written {
            eprintln!("error: cannot write {}: {error}", path.display());
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
