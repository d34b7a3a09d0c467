//! Perft from the command line: count the leaf nodes of the legal move tree of a position (or
//! every position of an EPD suite) with any slider backend.
//!
//! ```sh
//! cargo run --release -p bitforge-benches --bin perft -- --depth 6
//! cargo run --release -p bitforge-benches --bin perft -- --fen "<FEN>" --depth 5 --backend pext --divide
//! cargo run --release -p bitforge-benches --bin perft -- --epd ../shared/perft/roce.epd --depth 5
//! cargo run --release -p bitforge-benches --bin perft -- --list-backends
//! ```
//!
//! Exit codes: 0 success, 1 an EPD count that does not match, 2 bad arguments or input.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use bitforge::Position;
use bitforge::position::{PerftLine, START_FEN};
use bitforge::slider::{Backend, Slider, SliderJob};
use clap::Parser;

/// Count the leaf nodes of the legal move tree (perft, bulk-counted at the last ply).
#[derive(Debug, Parser)]
#[command(about, long_about)]
struct Args {
    /// The position (default: the starting position).
    #[arg(long, conflicts_with = "epd")]
    fen: Option<String>,
    /// The depth in plies; with --epd, the deepest listed depth to run (default: all).
    #[arg(long, short, value_parser = clap::value_parser!(u32).range(0..=20))]
    depth: Option<u32>,
    /// The slider backend (default: the best for this CPU; see --list-backends).
    #[arg(long, short)]
    backend: Option<String>,
    /// Read castling in Chess960 terms and print castling as king takes rook.
    #[arg(long)]
    chess960: bool,
    /// Print the count below each root move.
    #[arg(long, conflicts_with = "epd")]
    divide: bool,
    /// Run every position of a perft suite (`FEN ;D1 n ;D2 n ...` per line) and check it.
    #[arg(long, value_name = "FILE")]
    epd: Option<std::path::PathBuf>,
    /// With --epd, run only the listed depths whose count is at most this many nodes.
    #[arg(long, requires = "epd", value_name = "NODES")]
    max_nodes: Option<u64>,
    /// Print every backend's name, the level it runs compiled for here (or that it cannot),
    /// its table size and method, then exit.
    #[arg(long, exclusive = true)]
    list_backends: bool,
}

/// Perft of one position, monomorphised for the chosen backend.
struct Single<'a> {
    fen: &'a str,
    chess960: bool,
    depth: u32,
    divide: bool,
}

impl SliderJob for Single<'_> {
    type Output = Result<(u64, Duration), String>;

    fn run<S: Slider>(self, slider: S) -> Self::Output {
        let mut position = parse(self.fen, self.chess960, slider)?;
        let chess960 = position.is_chess960();
        let start = Instant::now();
        let nodes = if self.divide {
            position.divide(self.depth, |m, nodes| {
                println!("{}: {nodes}", m.uci(chess960))
            })
        } else {
            position.perft(self.depth)
        };
        Ok((nodes, start.elapsed()))
    }
}

/// One line of a suite: the counts checked, or the first mismatch.
struct SuiteLine<'a> {
    line: PerftLine<'a>,
    chess960: bool,
    max_depth: u32,
    max_nodes: u64,
}

/// What one suite line gave: per depth run, (depth, expected, got); and the time.
type LineOutcome = (Vec<(u32, u64, u64)>, Duration);

impl SliderJob for SuiteLine<'_> {
    type Output = Result<LineOutcome, String>;

    fn run<S: Slider>(self, slider: S) -> Self::Output {
        let position = parse(self.line.fen, self.chess960, slider)?;
        let start = Instant::now();
        let results = self
            .line
            .counts()
            .filter(|&(depth, expected)| depth <= self.max_depth && expected <= self.max_nodes)
            .map(|(depth, expected)| (depth, expected, position.perft(depth)))
            .collect();
        Ok((results, start.elapsed()))
    }
}

fn parse<S: Slider>(fen: &str, chess960: bool, slider: S) -> Result<Position<S>, String> {
    let parsed = if chess960 {
        Position::from_fen_chess960(fen, slider)
    } else {
        Position::from_fen(fen, slider)
    };
    parsed.map_err(|error| {
        format!(
            "{error}\n  {fen}\n  {:>width$}",
            "^",
            width = error.column + 1
        )
    })
}

fn mnps(nodes: u64, elapsed: Duration) -> f64 {
    nodes as f64 / elapsed.as_secs_f64().max(1e-9) / 1e6
}

fn list_backends() {
    for backend in Backend::ALL {
        let runs = match backend.level_name() {
            Some(level) => format!("runs compiled for {level}"),
            None => format!("unavailable (needs {})", backend.own_level_name()),
        };
        let best = if backend == Backend::best() {
            ", best here"
        } else {
            ""
        };
        println!(
            "{:<20} {runs}{best}, tables {:.1} KiB\n{:<20} {}",
            backend.name(),
            backend.table_bytes() as f64 / 1024.0,
            "",
            backend.method()
        );
    }
}

fn run_single(args: &Args, backend: Backend) -> Result<(), String> {
    let fen = args.fen.as_deref().unwrap_or(START_FEN);
    let depth = args
        .depth
        .ok_or("--depth is required (or use --epd or --list-backends)")?;
    let job = Single {
        fen,
        chess960: args.chess960,
        depth,
        divide: args.divide,
    };
    let (nodes, elapsed) = backend.run(job).ok_or("the backend is not available")??;
    println!("backend: {backend}");
    println!("time: {:.3} s", elapsed.as_secs_f64());
    println!("Mnps: {:.1}", mnps(nodes, elapsed));
    println!("nodes {nodes}");
    Ok(())
}

/// Runs a suite; `Ok(true)` when every count matched.
fn run_suite(args: &Args, path: &std::path::Path, backend: Backend) -> Result<bool, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
    println!("backend: {backend}");
    let (mut passed, mut failed, mut nodes, mut elapsed) = (0, 0, 0u64, Duration::ZERO);
    for (number, line) in text.lines().enumerate().map(|(i, line)| (i + 1, line)) {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let line = PerftLine::parse(line)
            .map_err(|error| format!("{}:{number}: {error}", path.display()))?;
        let job = SuiteLine {
            line,
            chess960: args.chess960,
            max_depth: args.depth.unwrap_or(u32::MAX),
            max_nodes: args.max_nodes.unwrap_or(u64::MAX),
        };
        let (results, time) = backend
            .run(job)
            .ok_or("the backend is not available")?
            .map_err(|error| format!("{}:{number}: {error}", path.display()))?;
        elapsed += time;
        for (depth, expected, got) in results {
            nodes += got;
            if got == expected {
                passed += 1;
                println!("ok    line {number} D{depth} {got}");
            } else {
                failed += 1;
                println!(
                    "FAIL  line {number} D{depth} {got}, expected {expected}: {}",
                    line.fen
                );
            }
        }
    }
    println!("time: {:.3} s", elapsed.as_secs_f64());
    println!("Mnps: {:.1}", mnps(nodes, elapsed));
    println!("{passed} passed, {failed} failed");
    Ok(failed == 0)
}

fn main() -> ExitCode {
    let args = Args::parse();
    if args.list_backends {
        list_backends();
        return ExitCode::SUCCESS;
    }
    let backend = match Backend::choose(args.backend.as_deref()) {
        Ok(backend) => backend,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::from(2);
        }
    };
    let outcome = match &args.epd {
        Some(path) => run_suite(&args, path, backend),
        None => run_single(&args, backend).map(|()| true),
    };
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}
