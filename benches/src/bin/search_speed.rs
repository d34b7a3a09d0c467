//! magic-search's full fancy search against Stockfish's method (benches/c/stockfish_magics.c,
//! built by this crate's build script), the way issue 19 states the target: one thread, find +
//! verify a full set, seeds 1-9 (magic-search's stream offsets are tuned for its default seed
//! only; Stockfish's generator starts every square from the seed), the median over the seeds;
//! both run in the same rounds, alternating, so the machine's drift hits both alike. Each C
//! run's table is checked against the reference walker. A last row, not in the median, times
//! both searches tuned: magic-search's default seed (its tuned streams) against Stockfish's
//! per-rank seeds.
//!
//! `--vectors` times magic-search once per choice of vector instructions in the same rounds
//! (`scalar`, `avx2`, `widest`), to measure on one machine the paths that CPUs without AVX-512
//! or AVX2 run.
//!
//! ```sh
//! cargo run --release -p bitforge-benches --bin search-speed -- --rounds 3 --vectors avx2,widest
//! ```

use std::process::ExitCode;
use std::time::{Duration, Instant};

use bitforge_benches::machine::Machine;
use bitforge_benches::runs::median;
use bitforge_index::geometry::{ray_attacks, relevant_mask};
use bitforge_index::{Scheme, SliderKind, Subsets, verify};
use clap::Parser;
use magic_search::{DEFAULT_SEED, SearchConfig, Vectors, find_set};

unsafe extern "C" {
    /// Finds every rook, then every bishop magic, the candidates tried returned; seed 0 starts
    /// each square from Stockfish's seed for its rank.
    fn stockfish_find_magics(seed: u64, magics: *mut u64) -> u64;
    /// Entry `index` of the table the last search filled (rooks' slices first).
    fn stockfish_table_entry(index: usize) -> u64;
}

/// Time magic-search's fancy search against Stockfish's, seeds 1-9, one thread.
#[derive(Debug, Parser)]
#[command(about, long_about)]
struct Args {
    /// Rounds; each runs every seed once in both searches. Each seed's median over the rounds
    /// counts.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=100))]
    rounds: u32,
    /// The seeds (nonzero; Stockfish's generator stays at zero), each a row.
    #[arg(long, value_delimiter = ',', default_values_t = 1..=9u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    seeds: Vec<u64>,
    /// The widest vector instructions magic-search may use, one timing per choice (`scalar`,
    /// `avx2`, `widest`); the sets are the same.
    #[arg(long, value_delimiter = ',', default_values_t = [Vectors::Widest])]
    vectors: Vec<Vectors>,
}

/// One row of the table: magic-search's seed and Stockfish's (0: its per-rank seeds).
#[derive(Clone, Copy)]
struct Row {
    ours: u64,
    theirs: u64,
}

impl Row {
    fn label(self) -> String {
        if self.theirs == 0 {
            "tuned".to_owned()
        } else {
            self.ours.to_string()
        }
    }
}

/// Runs Stockfish's search and checks the table it filled: its candidates tried.
fn stockfish(seed: u64) -> Result<u64, String> {
    let mut magics = [0u64; 128];
    // SAFETY: the C function writes 128 magics into the array it is given and touches only its
    // own static buffers otherwise; this program calls it from one thread.
    let tried = unsafe { stockfish_find_magics(seed, magics.as_mut_ptr()) };
    let mut base = 0;
    for (number, magic) in magics.iter().enumerate() {
        let kind = if number < 64 {
            SliderKind::Rook
        } else {
            SliderKind::Bishop
        };
        let square = (number % 64) as u8;
        let mask = relevant_mask(kind, square);
        let bits = mask.count_ones() as u8;
        for occupancy in Subsets::new(mask) {
            let index = base + Scheme::Fancy.index(occupancy, mask, *magic, bits);
            // SAFETY: a plain read of the C table; indices past its end return 0.
            let held = unsafe { stockfish_table_entry(index) };
            if held != ray_attacks(kind, square, occupancy) {
                return Err(format!(
                    "Stockfish's table is wrong for {kind:?} {square} seed {seed}"
                ));
            }
        }
        base += 1usize << mask.count_ones();
    }
    Ok(tried)
}

fn main() -> ExitCode {
    let args = Args::parse();
    let rows: Vec<Row> = (args.seeds.iter())
        .map(|&seed| Row {
            ours: seed,
            theirs: seed,
        })
        .chain([Row {
            ours: DEFAULT_SEED,
            theirs: 0,
        }])
        .collect();
    // ours[path][row], theirs[row]: every round's time.
    let mut ours = vec![vec![Vec::new(); rows.len()]; args.vectors.len()];
    let mut theirs = vec![Vec::new(); rows.len()];
    let mut tried = vec![(0, 0); rows.len()];
    for round in 1..=args.rounds {
        eprintln!("round {round} of {}", args.rounds);
        for (number, row) in rows.iter().enumerate() {
            for (path, &vectors) in args.vectors.iter().enumerate() {
                let config = SearchConfig {
                    seed: row.ours,
                    vectors,
                    ..SearchConfig::default()
                };
                let started = Instant::now();
                let (set, stats) = find_set(&config, 1, &|_| {});
                let checked = verify(&set);
                ours[path][number].push(started.elapsed());
                if let Err(error) = checked {
                    eprintln!(
                        "error: magic-search's set for seed {} ({vectors}) does not verify: \
                         {error}",
                        row.ours
                    );
                    return ExitCode::FAILURE;
                }
                tried[number].0 = stats.candidates_tried;
            }

            let started = Instant::now();
            // The C search fills its table as it goes: that is its verification.
            // SAFETY: see `stockfish`.
            let their_tried =
                unsafe { stockfish_find_magics(row.theirs, [0u64; 128].as_mut_ptr()) };
            theirs[number].push(started.elapsed());
            tried[number].1 = their_tried;
        }
    }
    // Outside the timed runs: the C search's table is right.
    for row in &rows {
        if let Err(error) = stockfish(row.theirs) {
            eprintln!("error: {error}");
            return ExitCode::FAILURE;
        }
    }

    let machine = Machine::here();
    println!(
        "Machine: {}, {} cores; {} rounds, medians per seed; magic-search's vector \
         instructions at most: {}.\n",
        machine.cpu,
        machine.cores,
        args.rounds,
        args.vectors
            .iter()
            .map(Vectors::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    );
    let paths = args.vectors.iter();
    let header: String = paths
        .clone()
        .map(|v| format!(" magic-search {v} ms |"))
        .collect();
    let ratios: String = paths.clone().map(|v| format!(" {v} / C |")).collect();
    println!("| seed |{header} candidates | Stockfish's method ms | candidates |{ratios}");
    println!("| --- |{}", " --- |".repeat(2 * args.vectors.len() + 3));
    let ms = |time: Duration| time.as_secs_f64() * 1000.0;
    let cells = |ours: &[Duration], theirs: Duration, bold: bool| -> (String, String) {
        let times = ours
            .iter()
            .map(|&time| format!(" {:.1} |", ms(time)))
            .collect();
        let ratios = (ours.iter())
            .map(|&time| {
                let ratio = ms(time) / ms(theirs);
                if bold {
                    format!(" **{ratio:.2}** |")
                } else {
                    format!(" {ratio:.2} |")
                }
            })
            .collect();
        (times, ratios)
    };
    let mut our_medians = vec![Vec::new(); args.vectors.len()];
    let mut their_medians = Vec::new();
    let mut tuned_line = String::new();
    for (number, row) in rows.iter().enumerate() {
        let their_time = median(&mut theirs[number].clone());
        let our_times: Vec<Duration> = ours
            .iter()
            .map(|path| median(&mut path[number].clone()))
            .collect();
        let (times, ratios) = cells(&our_times, their_time, false);
        let (our_tried, their_tried) = tried[number];
        let line = format!(
            "| {} |{times} {our_tried} | {:.1} | {their_tried} |{ratios}",
            row.label(),
            ms(their_time)
        );
        if row.theirs == 0 {
            tuned_line = line;
            continue;
        }
        println!("{line}");
        their_medians.push(their_time);
        for (medians, &time) in our_medians.iter_mut().zip(&our_times) {
            medians.push(time);
        }
    }
    let their_time = median(&mut their_medians);
    let our_times: Vec<Duration> = our_medians.iter_mut().map(|times| median(times)).collect();
    let (times, ratios) = cells(&our_times, their_time, true);
    println!("| median |{times} | {:.1} | |{ratios}", ms(their_time));
    println!("{tuned_line}");
    ExitCode::SUCCESS
}
